import type { Db } from '../../store/db.js';
import { VectorMatrix } from '../../embed/vector-matrix.js';
import { dot } from '../../embed/embedder.js';
import { toFloat32 } from '../../store/embeddings.js';
import { similarPairs, type SimilarPair } from '../similarity/similar-pairs.js';
import { lshPairs } from '../similarity/lsh-pairs.js';
import { forgetFusionNodes, fusionNodes, keepFusionNodes, nodesOfDocs, PROJECTED, readNodes, refreshDocs, type FusionNodes, type NodeRows } from './fusion-nodes.js';
import {
  addSuperMember,
  countSuperNodes,
  deleteAllSuperNodes,
  deleteLoneSuperNodes,
  insertSuperNode,
  mergeSuperNodes,
  mindMapNodeText,
  removeSuperMember,
  superMemberVectors,
  superNodeOf,
} from '../../store/super-nodes.js';

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
  stamp?: { current: string; next: string },
): Promise<{ topics: number; facts: number }> {
  try {
    await fuse(db, model, changed, t, stamp);
  } catch (err) {
    forgetFusionNodes(db);
    // Kept nodes out of step with the index (a row deleted behind this process's back) fail the
    // writes; read everything once more before giving up.
    if (!stamp) throw err;
    await fuse(db, model, changed, t, undefined);
  }
  return { topics: countSuperNodes(db, 'topic'), facts: countSuperNodes(db, 'fact') };
}

async function fuse(db: Db, model: string, changed: Set<number> | 'all', t: FusionThresholds, stamp: { current: string; next: string } | undefined): Promise<void> {
  const { nodes, fromCache, superOf } = stamp && changed !== 'all' ? fusionNodes(db, model, stamp.current) : { nodes: readAll(db, model), fromCache: false, superOf: null };
  const docCount = countDocs(nodes);
  if (changed === 'all' || changed.size * 4 > docCount) {
    if (fromCache) refreshDocs(db, model, nodes, changed as Set<number>);
    // The pairs are found first, yielding to the event loop as it goes; only the writes hold a transaction.
    const groups = await rebuildGroups(nodes, t);
    const textOf = (id: number) => mindMapNodeText(db, id);
    db.transaction(() => {
      deleteAllSuperNodes(db);
      for (const { kind, members } of groups) insertGroup(db, kind, members, textOf);
    })();
  } else {
    // Read from the index just now, the nodes already hold the changed notes' new rows.
    // The groups the changed notes' old nodes were in are the only ones that can have come apart;
    // without the kept memberships, every group is checked.
    let lost: number[] | null = null;
    if (fromCache && superOf) lost = [...new Set(nodesOfDocs(nodes, changed).flatMap((id) => superOf.get(id) ?? []))];
    if (fromCache) refreshDocs(db, model, nodes, changed);
    db.transaction(() => mergeChanged(db, model, nodes, changed, t, lost))();
  }
  if (stamp) keepFusionNodes(db, model, stamp.next, nodes);
}

function readAll(db: Db, model: string): FusionNodes {
  forgetFusionNodes(db);
  return readNodes(db, model);
}

function countDocs(nodes: FusionNodes): number {
  const docs = new Set<number>();
  for (const rows of [nodes.topic, nodes.fact]) for (let r = 0; r < rows.size; r++) docs.add(rows.docs[r]!);
  return docs.size;
}

function matrixOf(rows: NodeRows): VectorMatrix {
  return new VectorMatrix(rows.dim, { ids: rows.ids.slice(0, rows.size), data: rows.data.slice(0, rows.size * rows.dim) });
}

async function rebuildGroups(nodes: FusionNodes, t: FusionThresholds): Promise<{ kind: Kind; members: Map<number, number> }[]> {
  const groups: { kind: Kind; members: Map<number, number> }[] = [];
  for (const kind of ['topic', 'fact'] as const) {
    const rows = nodes[kind];
    const docOf = new Map<number, number>();
    for (let r = 0; r < rows.size; r++) docOf.set(rows.ids[r]!, rows.docs[r]!);
    const otherDoc = (a: number, b: number) => docOf.get(a) !== docOf.get(b);
    const m = matrixOf(rows);
    const threshold = t[kind];
    const near = rows.projected ? { k: PROJECTED, coords: rows.proj.slice(0, rows.size * PROJECTED) } : undefined;
    const pairs = m.size <= EXACT_LIMIT ? await similarPairs(m, threshold, otherDoc) : await lshPairs(m, threshold, otherDoc, 16, near);
    for (const members of groupPairs(pairs)) groups.push({ kind, members });
  }
  return groups;
}

/**
 * Each node of a changed note against every node of its kind (exact). Nodes, and the matches of each,
 * are taken in id order, so the result does not depend on the order rows are held in.
 */
function mergeChanged(db: Db, model: string, nodes: FusionNodes, changed: Set<number>, t: FusionThresholds, lost: number[] | null): void {
  // Groups that lost members to the deleted rows may have fallen below two, or apart.
  deleteLoneSuperNodes(db);
  splitBrokenGroups(db, model, t, lost);
  const textOf = (id: number) => mindMapNodeText(db, id);
  for (const kind of ['topic', 'fact'] as const) {
    const rows = nodes[kind];
    const { dim, data, ids, docs, size, proj, projected } = rows;
    const threshold = t[kind];
    // Squared distance between unit vectors at cosine `threshold`, with room for float rounding.
    const reach = 2 * (1 - threshold) + 1e-4;
    const mine: number[] = [];
    for (let r = 0; r < size; r++) if (changed.has(docs[r]!)) mine.push(r);
    mine.sort((a, b) => ids[a]! - ids[b]!);
    // Every row is read once for all the changed nodes (rather than once per node): the rows are the
    // large side, the changed nodes a handful.
    const found: { other: number; sim: number }[][] = mine.map(() => []);
    const P = PROJECTED;
    for (let o = 0; o < size; o++) {
      const od = docs[o]!;
      const op = o * P;
      for (let m = 0; m < mine.length; m++) {
        const r = mine[m]!;
        if (docs[r] === od) continue;
        if (projected) {
          // Leading directions carry the most variance: most rows are out of reach after a few.
          let far = 0;
          for (let k = 0, a = r * P, b = op; k < P && far <= reach; k++, a++, b++) {
            const diff = proj[a]! - proj[b]!;
            far += diff * diff;
          }
          if (far > reach) continue;
        }
        let s = 0;
        for (let d = 0, qb = r * dim, ob = o * dim; d < dim; d++, qb++, ob++) s += data[qb]! * data[ob]!;
        if (s >= threshold) found[m]!.push({ other: ids[o]!, sim: s });
      }
    }
    for (const [m, r] of mine.entries()) {
      const id = ids[r]!;
      const matches = found[m]!;
      matches.sort((a, b) => a.other - b.other);
      for (const { other, sim } of matches) {
        const mineSuper = superNodeOf(db, id);
        const theirs = superNodeOf(db, other);
        if (mineSuper === undefined && theirs === undefined) {
          insertGroup(db, kind, new Map([[id, sim], [other, sim]]), textOf);
        } else if (mineSuper === undefined) {
          addSuperMember(db, theirs!, id, sim);
        } else if (theirs === undefined) {
          addSuperMember(db, mineSuper, other, sim);
        } else if (mineSuper !== theirs) {
          mergeSuperNodes(db, theirs, mineSuper);
        }
      }
    }
  }
}

/**
 * A group is the connected pairs at the threshold; a member deleted with its note may have been the
 * only link between the others. Each group's remaining members are compared among themselves (groups
 * are small) and split into their connected parts, as a rebuild would group them; a member left
 * alone leaves the group.
 */
function splitBrokenGroups(db: Db, model: string, t: FusionThresholds, only: number[] | null): void {
  if (only?.length === 0) return;
  const rows = superMemberVectors(db, model, only);
  for (let start = 0; start < rows.length; ) {
    const superId = rows[start]![0];
    let end = start;
    while (end < rows.length && rows[end]![0] === superId) end++;
    const members = rows.slice(start, end).map(([, kind, id, doc, buf]) => ({ kind, id, doc, v: toFloat32(buf) }));
    start = end;
    const threshold = t[members[0]!.kind];
    const parent = members.map((_, i) => i);
    const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x]!)));
    for (let i = 0; i < members.length; i++) {
      for (let j = i + 1; j < members.length; j++) {
        if (members[i]!.doc === members[j]!.doc || dot(members[i]!.v, members[j]!.v) < threshold) continue;
        parent[find(i)] = find(j);
      }
    }
    const parts = new Map<number, typeof members>();
    members.forEach((m, i) => {
      const r = find(i);
      parts.set(r, [...(parts.get(r) ?? []), m]);
    });
    if (parts.size === 1 && members.length >= 2) continue;
    // The part holding the first member keeps the group; the others become groups of their own.
    const [kept, ...others] = [...parts.values()];
    for (const part of [kept!, ...others]) {
      if (part !== kept && part.length >= 2) {
        for (const m of part) removeSuperMember(db, superId, m.id);
        insertGroup(db, part[0]!.kind, new Map(part.map((m) => [m.id, bestSim(m, part)])), (id) => mindMapNodeText(db, id));
      } else if (part.length < 2) {
        for (const m of part) removeSuperMember(db, superId, m.id);
      }
    }
  }
  deleteLoneSuperNodes(db);
}

function bestSim(m: { id: number; doc: number; v: Float32Array }, part: { id: number; doc: number; v: Float32Array }[]): number {
  let best = 0;
  for (const o of part) if (o.doc !== m.doc) best = Math.max(best, dot(m.v, o.v));
  return best;
}

function insertGroup(db: Db, kind: Kind, members: Map<number, number>, textOf: (id: number) => string): void {
  const label = [...members.keys()].map(textOf).sort((a, b) => a.length - b.length)[0] ?? '';
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
