// The numeric core of PG-RAG's pseudo-graph retrieval (§2.4, Algorithm 1), on typed arrays.
// A template holds one row per root-to-leaf fact path (topic › route › … › fact), −1 padded on the right.
// Rows sharing an ancestor must be consecutive (the template builder emits them in DFS order), which is
// what lets a DFS from a seed fact become "find the block of rows sharing the ancestor".

export interface PgrParams {
  /** |sim − sim_seed| ≤ supportTheta: the node supports the seed, contribution supportWeight·sim. */
  supportTheta: number;
  /** |sim − sim_seed| ≤ fuzzyTheta (but not support): contribution fuzzyWeight·sim. */
  fuzzyTheta: number;
  supportWeight: number;
  fuzzyWeight: number;
  /** Seed fact paths per key point. */
  seedsPerKeyPoint: number;
  /** Fact paths returned. */
  topK: number;
}

export const DEFAULT_PGR_PARAMS: PgrParams = {
  supportTheta: 0.03,
  fuzzyTheta: 0.05,
  supportWeight: 1,
  fuzzyWeight: 0.5,
  seedsPerKeyPoint: 3,
  topK: 8,
};

export interface Template {
  rows: number;
  cols: number;
  /** rows × cols node ids, −1 = empty cell. */
  ids: Int32Array;
  /** rows × cols index into nodeVectors, −1 = empty cell (or a node without a vector). */
  cellNode: Int32Array;
  /** Unit vectors of the distinct nodes, nodeCount × dim. */
  nodeVectors: Float32Array;
  dim: number;
}

/** Builds a template from root-to-leaf id paths and a vector lookup; paths must come in DFS order. */
export function buildTemplate(paths: number[][], vectorOf: (id: number) => Float32Array | undefined, dim: number): Template {
  const rows = paths.length;
  const cols = paths.reduce((m, p) => Math.max(m, p.length), 0);
  const ids = new Int32Array(rows * cols).fill(-1);
  const cellNode = new Int32Array(rows * cols).fill(-1);
  const nodeIndex = new Map<number, number>();
  const vectors: Float32Array[] = [];
  paths.forEach((path, r) => {
    path.forEach((id, c) => {
      ids[r * cols + c] = id;
      let n = nodeIndex.get(id);
      if (n === undefined) {
        const v = vectorOf(id);
        if (!v) return;
        n = vectors.length;
        vectors.push(v);
        nodeIndex.set(id, n);
      }
      cellNode[r * cols + c] = n;
    });
  });
  const nodeVectors = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => nodeVectors.set(v, i * dim));
  return { rows, cols, ids, cellNode, nodeVectors, dim };
}

/** SM: cosine of the key point with the node in every cell (0 in empty cells). Each node is scored once. */
export function similarityMatrix(t: Template, kp: Float32Array): Float32Array {
  const nodeCount = t.nodeVectors.length / t.dim;
  const nodeSim = new Float32Array(nodeCount);
  for (let n = 0; n < nodeCount; n++) {
    let s = 0;
    const base = n * t.dim;
    for (let i = 0; i < t.dim; i++) s += t.nodeVectors[base + i]! * kp[i]!;
    nodeSim[n] = s;
  }
  const sm = new Float32Array(t.rows * t.cols);
  for (let cell = 0; cell < sm.length; cell++) {
    const n = t.cellNode[cell]!;
    if (n >= 0) sm[cell] = nodeSim[n]!;
  }
  return sm;
}

/** Column of the leaf (the fact) of every row. */
export function leafColumns(t: Template): Int32Array {
  const leaf = new Int32Array(t.rows);
  for (let r = 0; r < t.rows; r++) {
    let c = t.cols - 1;
    while (c > 0 && t.ids[r * t.cols + c]! === -1) c--;
    leaf[r] = c;
  }
  return leaf;
}

/** Seed rows: the fact paths whose leaf is most similar to the key point (a fact node encodes its whole path). */
export function selectSeeds(t: Template, sm: Float32Array, leaf: Int32Array, n: number): number[] {
  const order = Array.from({ length: t.rows }, (_, r) => r).filter((r) => t.cellNode[r * t.cols + leaf[r]!]! >= 0);
  order.sort((a, b) => sm[b * t.cols + leaf[b]!]! - sm[a * t.cols + leaf[a]!]! || a - b);
  return order.slice(0, n);
}

/** Contribution of a node with similarity `sim` to a seed with similarity `seedSim`: support, fuzzy or reject (0). */
export function contribution(sim: number, seedSim: number, p: PgrParams): number {
  const diff = Math.abs(sim - seedSim);
  // A small epsilon so that a difference of exactly θ (as written by hand in tests and configs) counts as within θ.
  const eps = 1e-6;
  if (diff <= p.supportTheta + eps) return p.supportWeight * sim;
  if (diff <= p.fuzzyTheta + eps) return p.fuzzyWeight * sim;
  return 0;
}

export interface SeedWalk {
  seedRow: number;
  seedSim: number;
  /** Left boundary column: the highest ancestor reached before the first reject (the seed's own column if none). */
  left: number;
  /** The ancestor at the left boundary, whose block of rows is reachable. */
  ancestorId: number;
  top: number;
  bottom: number;
  right: number;
  /** Control matrix (rows × cols). */
  cm: Float32Array;
  /** Pathway matrix (rows × cols, 0/1). */
  pm: Uint8Array;
}

/**
 * One seed's control and pathway matrices. Walk left from the seed while nodes support it (the left boundary
 * is where the contribution drops to 0); the pathway is the block of rows sharing the ancestor at that
 * boundary, from the boundary to the right edge (eqs. 6–8); the other rows of the block are scanned rightwards
 * from the boundary, stopping at the first reject (its children are not expanded).
 */
export function walkSeed(t: Template, sm: Float32Array, leaf: Int32Array, seedRow: number, p: PgrParams): SeedWalk {
  const { rows, cols, ids } = t;
  const cm = new Float32Array(rows * cols);
  const pm = new Uint8Array(rows * cols);
  const seedCol = leaf[seedRow]!;
  const seedSim = sm[seedRow * cols + seedCol]!;
  cm[seedRow * cols + seedCol] = contribution(seedSim, seedSim, p);

  let left = seedCol;
  for (let c = seedCol - 1; c >= 0; c--) {
    const v = t.cellNode[seedRow * cols + c]! >= 0 ? contribution(sm[seedRow * cols + c]!, seedSim, p) : 0;
    if (v === 0) break;
    cm[seedRow * cols + c] = v;
    left = c;
  }

  const ancestorId = ids[seedRow * cols + left]!;
  let top = seedRow;
  while (top > 0 && ids[(top - 1) * cols + left]! === ancestorId) top--;
  let bottom = seedRow;
  while (bottom < rows - 1 && ids[(bottom + 1) * cols + left]! === ancestorId) bottom++;
  let right = left;
  for (let r = top; r <= bottom; r++) right = Math.max(right, leaf[r]!);

  for (let r = top; r <= bottom; r++) {
    for (let c = left; c <= right; c++) if (ids[r * cols + c] !== -1) pm[r * cols + c] = 1;
    if (r === seedRow) continue;
    for (let c = left; c <= leaf[r]!; c++) {
      const cell = r * cols + c;
      const v = t.cellNode[cell]! >= 0 ? contribution(sm[cell]!, seedSim, p) : 0;
      if (v === 0) break;
      cm[cell] = v;
    }
  }
  return { seedRow, seedSim, left, ancestorId, top, bottom, right, cm, pm };
}

export interface KeyPointRun {
  keyPoint: number;
  seeds: SeedWalk[];
}

export interface Aggregate {
  /** Σ over key points and seeds of CM ⊙ PM (rows × cols). */
  am: Float32Array;
  /** Row sums of AM: the total contribution of each fact path. */
  rowScores: Float32Array;
  runs: KeyPointRun[];
}

/** Algorithm 1 lines 4–11: per key point SM and seeds, per seed CM and PM, staining matrices summed into AM. */
export function aggregate(t: Template, keyPoints: Float32Array[], p: PgrParams = DEFAULT_PGR_PARAMS): Aggregate {
  const am = new Float32Array(t.rows * t.cols);
  const leaf = leafColumns(t);
  const runs: KeyPointRun[] = [];
  keyPoints.forEach((kp, k) => {
    const sm = similarityMatrix(t, kp);
    const seeds = selectSeeds(t, sm, leaf, p.seedsPerKeyPoint).map((row) => walkSeed(t, sm, leaf, row, p));
    for (const s of seeds) {
      // Only the block [top..bottom] × [left..right] can be non-zero.
      for (let r = s.top; r <= s.bottom; r++) {
        for (let c = s.left; c <= s.right; c++) {
          const cell = r * t.cols + c;
          am[cell]! += s.cm[cell]! * s.pm[cell]!;
        }
      }
    }
    runs.push({ keyPoint: k, seeds });
  });
  const rowScores = new Float32Array(t.rows);
  for (let r = 0; r < t.rows; r++) {
    let s = 0;
    for (let c = 0; c < t.cols; c++) s += am[r * t.cols + c]!;
    rowScores[r] = s;
  }
  return { am, rowScores, runs };
}

/** The K rows with the highest total contribution (rows with none are left out), best first. */
export function topRows(rowScores: Float32Array, k: number): number[] {
  return Array.from({ length: rowScores.length }, (_, r) => r)
    .filter((r) => rowScores[r]! > 0)
    .sort((a, b) => rowScores[b]! - rowScores[a]! || a - b)
    .slice(0, k);
}
