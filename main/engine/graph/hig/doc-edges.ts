import type { Db } from '../../store/db.js';
import { topK, type Scored, VectorMatrix } from '../../embed/vector-matrix.js';
import { loadDocEdges, replaceDocEdges, type DocEdge } from '../../store/graph-edges.js';
import { loadEmbedding, loadEmbeddings } from '../../store/embeddings.js';
import { simhashTables } from '../similarity/lsh-pairs.js';
import { exactNeighbours } from '../similarity/exact-neighbours.js';

export const DEFAULT_DOC_NEIGHBOURS = 3;

/**
 * Up to this many documents a full rebuild finds every document's exact neighbours, comparing every pair
 * once (10k notes: 5·10⁷ pairs). Above it the pairs grow too many (68k notes: 2.3·10⁹), so candidates
 * come from LSH buckets and only they are compared: near-linear, and most true neighbours are found.
 */
export const EXACT_DOC_LIMIT = 12_000;

/** Documents handled between two turns of the event loop, so calls and progress go on during the step. */
const YIELD_EVERY = 256;

/**
 * The document layer of KG-Retriever's hierarchical index graph: each document keeps edges to its K most
 * similar documents (weight = cosine). Incremental: only documents whose neighbour list can change are
 * recomputed — the changed ones, those that pointed at a changed or removed one, and those a changed
 * document now outranks.
 */
export async function updateDocEdges(
  db: Db,
  docs: VectorMatrix,
  changed: Set<number> | 'all',
  k = DEFAULT_DOC_NEIGHBOURS,
  exactLimit = EXACT_DOC_LIMIT,
  /** Runs exactNeighbours elsewhere (a worker thread) for a full rebuild; same lists. */
  exactElsewhere?: (docs: VectorMatrix, k: number) => Promise<Map<number, Scored[]>>,
  /** The graph step's stamps (see updateFusion): the lists kept under `current` stand for the table. */
  stamp?: { current: string; next: string },
): Promise<number> {
  const hit = kept.get(db);
  const current = stamp && hit && hit.stamp === stamp.current ? hit.edges : loadDocEdges(db);
  kept.delete(db);
  const affected = new Set<number>();
  const full = changed === 'all' || changed.size * 4 > docs.size;
  if (full) {
    for (const id of docs.ids) affected.add(id);
  } else {
    const live = new Set(docs.ids);
    for (const [src, edges] of current) {
      if (!live.has(src)) continue;
      if (changed.has(src) || edges.length < k || edges.some((e) => changed.has(e.dst) || !live.has(e.dst))) affected.add(src);
    }
    for (const id of docs.ids) if (!current.has(id)) affected.add(id);
    for (const c of changed) {
      const v = docs.vector(c);
      if (!v) continue;
      const scores = docs.scores(v);
      for (let r = 0; r < scores.length; r++) {
        const id = docs.ids[r]!;
        const edges = current.get(id);
        if (id !== c && edges && edges.length >= k && scores[r]! > edges[edges.length - 1]!.weight) affected.add(id);
      }
    }
  }

  const lists = new Map<number, Scored[]>();
  if (full && docs.size > exactLimit) {
    for (const [id, neighbours] of await lshNeighbours(docs, k)) lists.set(id, neighbours);
  } else if (full) {
    for (const [id, neighbours] of await (exactElsewhere ?? exactNeighbours)(docs, k)) lists.set(id, neighbours);
  } else {
    let n = 0;
    for (const id of affected) {
      const v = docs.vector(id);
      lists.set(id, v ? docs.search(v, k, (other) => other !== id) : []);
      if (++n % YIELD_EVERY === 0) await turn();
    }
  }
  // Documents gone from the matrix keep no list (their rows went with them).
  replaceDocEdges(db, lists);
  if (stamp) {
    const edges = full ? new Map<number, DocEdge[]>() : current;
    const live = new Set(docs.ids);
    for (const src of edges.keys()) if (!live.has(src)) edges.delete(src);
    for (const [src, list] of lists) edges.set(src, list.map((n) => ({ dst: n.id, weight: n.score })));
    kept.set(db, { stamp: stamp.next, edges });
  }
  return affected.size;
}

/**
 * The neighbour lists as this process last wrote them, under the stamp of the graph step that wrote
 * them: a few changed notes then need not read every edge again (another stamp means another writer).
 */
const kept = new WeakMap<Db, { stamp: string; edges: Map<number, DocEdge[]> }>();

/** The document matrix as last built, per database, under a graph step's stamp. */
const keptVectors = new WeakMap<Db, { model: string; stamp: string; matrix: VectorMatrix }>();

/**
 * Every document vector of `model`, in id order: the kept matrix with the changed documents' read again
 * when the stamp matches, else all read. Kept under `stamp.next` for the next step. Edited notes (no
 * note added or removed) are overwritten in their rows: at 10k notes, copying and sorting the whole
 * matrix again was most of a one-note edit's document-edge step.
 */
export function docMatrix(db: Db, model: string, dim: number, changed: Set<number> | 'all', stamp: { current: string; next: string }): VectorMatrix {
  const hit = keptVectors.get(db);
  keptVectors.delete(db);
  let matrix: VectorMatrix;
  if (hit && hit.model === model && hit.stamp === stamp.current && changed !== 'all') {
    const fresh = new Map<number, Float32Array | undefined>();
    for (const id of changed) fresh.set(id, loadEmbedding(db, 'doc', model, id));
    const usable = (v: Float32Array | undefined): v is Float32Array => v !== undefined && v.length === dim;
    const sameRows = [...fresh].every(([id, v]) => usable(v) === (hit.matrix.vector(id) !== undefined));
    if (sameRows) {
      matrix = hit.matrix;
      for (const [id, v] of fresh) if (usable(v)) matrix.vector(id)!.set(v);
    } else {
      const vectors = new Map<number, Float32Array>();
      hit.matrix.ids.forEach((id) => vectors.set(id, hit.matrix.vector(id)!));
      for (const [id, v] of fresh) {
        if (usable(v)) vectors.set(id, v);
        else vectors.delete(id);
      }
      matrix = new VectorMatrix(dim, [...vectors].sort((a, b) => a[0] - b[0]).map(([id, vector]) => ({ id, vector })));
    }
  } else {
    const entries = loadEmbeddings(db, 'doc', model).map((e) => ({ id: e.id, vector: e.vector }));
    matrix = new VectorMatrix(dim, entries.sort((a, b) => a.id - b.id));
  }
  keptVectors.set(db, { model, stamp: stamp.next, matrix });
  return matrix;
}

/**
 * Approximate K nearest neighbours of every row: random-hyperplane hashes of the mean-centred vectors in
 * several tables; each row is compared with the rows sharing one of its buckets (a window of them in a
 * crowded bucket), and keeps the K best.
 */
async function lshNeighbours(m: VectorMatrix, k: number, tables = 12, bits = 8, window = 48): Promise<Map<number, Scored[]>> {
  const { dim, size, data, ids } = m;
  // Candidates per row, deduplicated per row with a stamp array.
  const candidates: number[][] = Array.from({ length: size }, () => []);
  for (const buckets of simhashTables(m, bits, tables, 0x2545f491)) {
    for (const rows of buckets.values()) {
      for (let i = 0; i < rows.length; i++) {
        const from = Math.max(0, i - window);
        const to = Math.min(rows.length, i + window + 1);
        const list = candidates[rows[i]!]!;
        for (let j = from; j < to; j++) if (j !== i) list.push(rows[j]!);
      }
    }
    await turn();
  }
  const out = new Map<number, Scored[]>();
  const stamp = new Int32Array(size).fill(-1);
  for (let r = 0; r < size; r++) {
    const cands = candidates[r]!;
    const rows: number[] = [];
    for (const c of cands) {
      if (stamp[c] === r) continue;
      stamp[c] = r;
      rows.push(c);
    }
    const scores = new Float32Array(rows.length);
    const rowIds = new Int32Array(rows.length);
    rows.forEach((c, i) => {
      let s = 0;
      for (let d = 0; d < dim; d++) s += data[r * dim + d]! * data[c * dim + d]!;
      scores[i] = s;
      rowIds[i] = ids[c]!;
    });
    out.set(ids[r]!, topK(scores, rowIds, k));
    candidates[r] = [];
    if (r % YIELD_EVERY === 0) await turn();
  }
  return out;
}

function turn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
