import type { Db } from '../store/db.js';
import { VectorMatrix } from '../embed/vector-matrix.js';
import { loadEmbeddings } from '../store/embeddings.js';
import { similarPairs, type SimilarPair } from './similar-pairs.js';
import { lshPairs } from './lsh-pairs.js';

export interface FusionThresholds {
  /** Topics (note-level mind-map roots) at or above this cosine join one super-topic node. */
  topic: number;
  /** Fact paths at or above this cosine join one super-fact node. */
  fact: number;
}

export const DEFAULT_FUSION: FusionThresholds = { topic: 0.92, fact: 0.98 };

/** Above this many nodes of a kind, a full rebuild finds pairs with LSH instead of the exact range query. */
const EXACT_LIMIT = 3000;

type Kind = 'topic' | 'fact';

interface Nodes {
  docOf: Map<number, number>;
  textOf: Map<number, string>;
  matrices: Record<Kind, VectorMatrix>;
}

/**
 * PG-RAG's pseudo-graph (App. E): mind maps of different notes are joined through super nodes. Nodes whose
 * path embeddings are at least as similar as the threshold are grouped (union–find); each group of two or
 * more is a super node, whose members keep their best similarity within the group. Only nodes of
 * different notes are joined: within a note the mind map already relates them.
 *
 * `changed` lists documents whose nodes are new since the last run (their old nodes, and with them their
 * memberships, were deleted with the old rows). A few changed notes are merged into the existing groups
 * (exact: each new node against all); many, or 'all', rebuild the whole pseudo-graph.
 */
export function updateFusion(
  db: Db,
  model: string,
  changed: Set<number> | 'all',
  t: FusionThresholds = DEFAULT_FUSION,
): { topics: number; facts: number } {
  const nodes = loadNodes(db, model);
  const docCount = new Set(nodes.docOf.values()).size;
  db.transaction(() => {
    if (changed === 'all' || changed.size * 4 > docCount) rebuildAll(db, nodes, t);
    else mergeChanged(db, nodes, changed, t);
  })();
  const count = (kind: Kind) => db.prepare('SELECT count(*) FROM super_nodes WHERE kind = ?').pluck().get(kind) as number;
  return { topics: count('topic'), facts: count('fact') };
}

function loadNodes(db: Db, model: string): Nodes {
  const docOf = new Map<number, number>();
  const textOf = new Map<number, string>();
  const kindOf = new Map<number, Kind>();
  for (const r of db.prepare("SELECT id, document_id, kind, text FROM mm_nodes WHERE kind IN ('topic','fact')").all() as {
    id: number;
    document_id: number;
    kind: Kind;
    text: string;
  }[]) {
    docOf.set(r.id, r.document_id);
    textOf.set(r.id, r.text);
    kindOf.set(r.id, r.kind);
  }
  const vectors = loadEmbeddings(db, 'mm', model).filter((e) => kindOf.has(e.id));
  const dim = vectors[0]?.vector.length ?? 0;
  const matrix = (kind: Kind) => new VectorMatrix(dim, vectors.filter((e) => kindOf.get(e.id) === kind));
  return { docOf, textOf, matrices: { topic: matrix('topic'), fact: matrix('fact') } };
}

function rebuildAll(db: Db, nodes: Nodes, t: FusionThresholds): void {
  db.prepare('DELETE FROM super_nodes').run();
  const otherDoc = (a: number, b: number) => nodes.docOf.get(a) !== nodes.docOf.get(b);
  for (const kind of ['topic', 'fact'] as const) {
    const m = nodes.matrices[kind];
    const threshold = t[kind];
    const pairs = m.size <= EXACT_LIMIT ? similarPairs(m, threshold, otherDoc) : lshPairs(m, threshold, otherDoc);
    for (const members of groupPairs(pairs)) insertGroup(db, kind, members, nodes);
  }
}

function mergeChanged(db: Db, nodes: Nodes, changed: Set<number>, t: FusionThresholds): void {
  // Groups that lost members to the deleted rows may have fallen below two.
  db.prepare('DELETE FROM super_nodes WHERE (SELECT count(*) FROM super_members m WHERE m.super_id = super_nodes.id) < 2').run();
  const superOf = db.prepare('SELECT super_id FROM super_members WHERE node_id = ?').pluck();
  const addMember = db.prepare('INSERT OR REPLACE INTO super_members (super_id, node_id, sim) VALUES (?, ?, ?)');
  for (const kind of ['topic', 'fact'] as const) {
    const m = nodes.matrices[kind];
    for (const id of m.ids) {
      if (!changed.has(nodes.docOf.get(id)!)) continue;
      const scores = m.scores(m.vector(id)!);
      for (let r = 0; r < scores.length; r++) {
        const other = m.ids[r];
        if (scores[r] < t[kind] || nodes.docOf.get(other) === nodes.docOf.get(id)) continue;
        const mine = superOf.get(id) as number | undefined;
        const theirs = superOf.get(other) as number | undefined;
        if (mine === undefined && theirs === undefined) {
          insertGroup(db, kind, new Map([[id, scores[r]], [other, scores[r]]]), nodes);
        } else if (mine === undefined) {
          addMember.run(theirs, id, scores[r]);
        } else if (theirs === undefined) {
          addMember.run(mine, other, scores[r]);
        } else if (mine !== theirs) {
          db.prepare('UPDATE OR REPLACE super_members SET super_id = ? WHERE super_id = ?').run(theirs, mine);
          db.prepare('DELETE FROM super_nodes WHERE id = ?').run(mine);
        }
      }
    }
  }
}

function insertGroup(db: Db, kind: Kind, members: Map<number, number>, nodes: Nodes): void {
  const label = [...members.keys()].map((id) => nodes.textOf.get(id) ?? '').sort((a, b) => a.length - b.length)[0];
  const { id } = db.prepare('INSERT INTO super_nodes (kind, text) VALUES (?, ?) RETURNING id').get(kind, label) as { id: number };
  const insert = db.prepare('INSERT INTO super_members (super_id, node_id, sim) VALUES (?, ?, ?)');
  for (const [node, sim] of members) insert.run(id, node, sim);
}

function groupPairs(pairs: SimilarPair[]): Map<number, number>[] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    for (let c = x; c !== r; ) {
      const next = parent.get(c)!;
      parent.set(c, r);
      c = next;
    }
    return r;
  };
  const best = new Map<number, number>();
  for (const { a, b, sim } of pairs) {
    for (const x of [a, b]) {
      if (!parent.has(x)) parent.set(x, x);
      best.set(x, Math.max(best.get(x) ?? 0, sim));
    }
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const byRoot = new Map<number, Map<number, number>>();
  for (const node of parent.keys()) {
    const r = find(node);
    let m = byRoot.get(r);
    if (!m) byRoot.set(r, (m = new Map()));
    m.set(node, best.get(node) ?? 0);
  }
  return [...byRoot.values()].filter((m) => m.size >= 2);
}
