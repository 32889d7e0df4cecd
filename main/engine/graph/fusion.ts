import type { Db } from '../store/db.js';
import { VectorMatrix } from '../embed/vector-matrix.js';
import { loadEmbeddings } from '../store/embeddings.js';
import { similarPairs, type SimilarPair } from './similar-pairs.js';
import { lshPairs } from './lsh-pairs.js';
import {
  addSuperMember,
  countSuperNodes,
  deleteAllSuperNodes,
  deleteLoneSuperNodes,
  insertSuperNode,
  loadFusionNodes,
  mergeSuperNodes,
  superNodeOf,
} from '../store/super-nodes.js';

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
export async function updateFusion(
  db: Db,
  model: string,
  changed: Set<number> | 'all',
  t: FusionThresholds = DEFAULT_FUSION,
): Promise<{ topics: number; facts: number }> {
  const nodes = loadNodes(db, model);
  const docCount = new Set(nodes.docOf.values()).size;
  if (changed === 'all' || changed.size * 4 > docCount) {
    // The pairs are found first, yielding to the event loop as it goes; only the writes hold a transaction.
    const groups = await rebuildGroups(nodes, t);
    db.transaction(() => {
      deleteAllSuperNodes(db);
      for (const { kind, members } of groups) insertGroup(db, kind, members, nodes);
    })();
  } else {
    db.transaction(() => mergeChanged(db, nodes, changed, t))();
  }
  return { topics: countSuperNodes(db, 'topic'), facts: countSuperNodes(db, 'fact') };
}

function loadNodes(db: Db, model: string): Nodes {
  const docOf = new Map<number, number>();
  const textOf = new Map<number, string>();
  const kindOf = new Map<number, Kind>();
  for (const r of loadFusionNodes(db)) {
    docOf.set(r.id, r.document_id);
    textOf.set(r.id, r.text);
    kindOf.set(r.id, r.kind);
  }
  const vectors = loadEmbeddings(db, 'mm', model).filter((e) => kindOf.has(e.id));
  const dim = vectors[0]?.vector.length ?? 0;
  const matrix = (kind: Kind) => new VectorMatrix(dim, vectors.filter((e) => kindOf.get(e.id) === kind));
  return { docOf, textOf, matrices: { topic: matrix('topic'), fact: matrix('fact') } };
}

async function rebuildGroups(nodes: Nodes, t: FusionThresholds): Promise<{ kind: Kind; members: Map<number, number> }[]> {
  const otherDoc = (a: number, b: number) => nodes.docOf.get(a) !== nodes.docOf.get(b);
  const groups: { kind: Kind; members: Map<number, number> }[] = [];
  for (const kind of ['topic', 'fact'] as const) {
    const m = nodes.matrices[kind];
    const threshold = t[kind];
    const pairs = m.size <= EXACT_LIMIT ? await similarPairs(m, threshold, otherDoc) : await lshPairs(m, threshold, otherDoc);
    for (const members of groupPairs(pairs)) groups.push({ kind, members });
  }
  return groups;
}

function mergeChanged(db: Db, nodes: Nodes, changed: Set<number>, t: FusionThresholds): void {
  // Groups that lost members to the deleted rows may have fallen below two.
  deleteLoneSuperNodes(db);
  for (const kind of ['topic', 'fact'] as const) {
    const m = nodes.matrices[kind];
    for (const id of m.ids) {
      if (!changed.has(nodes.docOf.get(id)!)) continue;
      const scores = m.scores(m.vector(id)!);
      for (let r = 0; r < scores.length; r++) {
        const other = m.ids[r]!;
        if (scores[r]! < t[kind] || nodes.docOf.get(other) === nodes.docOf.get(id)) continue;
        const mine = superNodeOf(db, id);
        const theirs = superNodeOf(db, other);
        if (mine === undefined && theirs === undefined) {
          insertGroup(db, kind, new Map([[id, scores[r]!], [other, scores[r]!]]), nodes);
        } else if (mine === undefined) {
          addSuperMember(db, theirs!, id, scores[r]!);
        } else if (theirs === undefined) {
          addSuperMember(db, mine, other, scores[r]!);
        } else if (mine !== theirs) {
          mergeSuperNodes(db, theirs, mine);
        }
      }
    }
  }
}

function insertGroup(db: Db, kind: Kind, members: Map<number, number>, nodes: Nodes): void {
  const label = [...members.keys()].map((id) => nodes.textOf.get(id) ?? '').sort((a, b) => a.length - b.length)[0] ?? '';
  insertSuperNode(db, kind, label, members);
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
