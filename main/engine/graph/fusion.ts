import type { Db } from '../store/db.js';
import { VectorMatrix } from '../embed/vector-matrix.js';
import { loadEmbeddings } from '../store/embeddings.js';
import { similarPairs } from './similar-pairs.js';

export interface FusionThresholds {
  /** Topics (note-level mind-map roots) at or above this cosine join one super-topic node. */
  topic: number;
  /** Fact paths at or above this cosine join one super-fact node. */
  fact: number;
}

export const DEFAULT_FUSION: FusionThresholds = { topic: 0.92, fact: 0.98 };

/**
 * PG-RAG's pseudo-graph (App. E): mind maps of different notes are joined through super nodes. Similar
 * nodes (by their path embeddings) are grouped with union–find; each group of two or more becomes a
 * super node whose members keep their similarity to the group's best-connected member. Only nodes of
 * different notes are joined: within a note the mind map already relates them. Rebuilt whole each run —
 * it depends on every note, and the range query keeps it cheap.
 */
export function rebuildFusion(db: Db, model: string, t: FusionThresholds = DEFAULT_FUSION): { topics: number; facts: number } {
  const docOf = new Map<number, number>();
  const textOf = new Map<number, string>();
  const kindOf = new Map<number, string>();
  for (const r of db.prepare("SELECT id, document_id, kind, text FROM mm_nodes WHERE kind IN ('topic','fact')").all() as {
    id: number;
    document_id: number;
    kind: string;
    text: string;
  }[]) {
    docOf.set(r.id, r.document_id);
    textOf.set(r.id, r.text);
    kindOf.set(r.id, r.kind);
  }
  const vectors = loadEmbeddings(db, 'mm', model).filter((e) => kindOf.has(e.id));
  const dim = vectors[0]?.vector.length ?? 0;
  const groups = (kind: 'topic' | 'fact', threshold: number) => {
    const entries = vectors.filter((e) => kindOf.get(e.id) === kind);
    const pairs = similarPairs(new VectorMatrix(dim, entries), threshold, (a, b) => docOf.get(a) !== docOf.get(b));
    return groupPairs(pairs);
  };
  const topicGroups = groups('topic', t.topic);
  const factGroups = groups('fact', t.fact);

  db.transaction(() => {
    db.prepare('DELETE FROM super_nodes').run();
    const insertSuper = db.prepare('INSERT INTO super_nodes (kind, text) VALUES (?, ?) RETURNING id');
    const insertMember = db.prepare('INSERT INTO super_members (super_id, node_id, sim) VALUES (?, ?, ?)');
    for (const [kind, list] of [
      ['topic', topicGroups],
      ['fact', factGroups],
    ] as const) {
      for (const g of list) {
        const label = [...g.members.keys()].map((id) => textOf.get(id) ?? '').sort((a, b) => a.length - b.length)[0];
        const { id } = insertSuper.get(kind, label) as { id: number };
        for (const [node, sim] of g.members) insertMember.run(id, node, sim);
      }
    }
  })();
  return { topics: topicGroups.length, facts: factGroups.length };
}

function groupPairs(pairs: { a: number; b: number; sim: number }[]): { members: Map<number, number> }[] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!;
    let c = x;
    while (c !== r) {
      const next = parent.get(c)!;
      parent.set(c, r);
      c = next;
    }
    return r;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const best = new Map<number, number>();
  for (const { a, b, sim } of pairs) {
    best.set(a, Math.max(best.get(a) ?? 0, sim));
    best.set(b, Math.max(best.get(b) ?? 0, sim));
  }
  const byRoot = new Map<number, Map<number, number>>();
  for (const node of parent.keys()) {
    const r = find(node);
    let m = byRoot.get(r);
    if (!m) byRoot.set(r, (m = new Map()));
    m.set(node, best.get(node) ?? 0);
  }
  return [...byRoot.values()].filter((m) => m.size >= 2).map((members) => ({ members }));
}
