// Personalized PageRank over a sparse, undirected, weighted graph held as CSR on typed arrays.
// The walk moves from a node to a neighbour with probability proportional to the edge weight and
// jumps back to the reset distribution with probability 1 − damping (HippoRAG uses damping 0.5).

/** Compressed sparse rows of a symmetric weighted adjacency: row i's neighbours are col[ptr[i]..ptr[i+1]). */
export interface Csr {
  n: number;
  ptr: Int32Array;
  col: Int32Array;
  weight: Float32Array;
  /** Sum of each row's weights (the walk's normaliser). */
  strength: Float32Array;
}

/** Builds a symmetric CSR from undirected edges; duplicate edges add their weights, self loops are dropped. */
export function buildCsr(n: number, src: ArrayLike<number>, dst: ArrayLike<number>, weight: ArrayLike<number>): Csr {
  const m = src.length;
  const degree = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const a = src[e]!;
    const b = dst[e]!;
    if (a === b) continue;
    degree[a + 1]!++;
    degree[b + 1]!++;
  }
  const ptr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) ptr[i + 1] = ptr[i]! + degree[i + 1]!;
  const fill = ptr.slice(0, n);
  const col = new Int32Array(ptr[n]!);
  const w = new Float32Array(ptr[n]!);
  for (let e = 0; e < m; e++) {
    const a = src[e]!;
    const b = dst[e]!;
    if (a === b) continue;
    const wa = weight[e]!;
    col[fill[a]!] = b;
    w[fill[a]!++] = wa;
    col[fill[b]!] = a;
    w[fill[b]!++] = wa;
  }
  const strength = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = ptr[i]!; j < ptr[i + 1]!; j++) s += w[j]!;
    strength[i] = s;
  }
  return { n, ptr, col, weight: w, strength };
}

export interface PprOptions {
  /** Probability of following an edge rather than jumping back to the reset distribution. */
  damping: number;
  /** Power iterations; the error shrinks by `damping` each one (0.5^12 ≈ 2.4e-4). */
  iterations: number;
}

export const DEFAULT_PPR: PprOptions = { damping: 0.5, iterations: 12 };

/**
 * p = (1 − d)·r + d·Wᵀp with W row-normalised by strength. `reset` is normalised to sum 1 here; mass
 * reaching a node with no edges stays there (it is a dead end of the walk, not lost). Returns p.
 */
export function personalizedPageRank(g: Csr, reset: Float32Array, opts: PprOptions = DEFAULT_PPR): Float32Array {
  const { n, ptr, col, weight, strength } = g;
  let total = 0;
  for (let i = 0; i < n; i++) total += reset[i]!;
  const r = new Float32Array(n);
  if (total <= 0) return r;
  for (let i = 0; i < n; i++) r[i] = reset[i]! / total;
  let p = Float32Array.from(r);
  let next = new Float32Array(n);
  const d = opts.damping;
  for (let it = 0; it < opts.iterations; it++) {
    for (let i = 0; i < n; i++) next[i] = (1 - d) * r[i]!;
    for (let i = 0; i < n; i++) {
      const pi = p[i]!;
      if (pi === 0) continue;
      const s = strength[i]!;
      if (s === 0) {
        next[i]! += d * pi;
        continue;
      }
      const share = (d * pi) / s;
      for (let j = ptr[i]!; j < ptr[i + 1]!; j++) next[col[j]!]! += share * weight[j]!;
    }
    [p, next] = [next, p];
  }
  return p;
}

/**
 * The same ranking by local push (Andersen, Chung & Lang): residual mass is pushed from a node to its
 * neighbours only while it exceeds `epsilon` × the node's strength, so the work depends on epsilon and
 * the seeds' neighbourhood, not on the size of the graph — a few ms per query at 10k notes where power
 * iteration touches every edge of the graph each round. Returns the estimate p (p ≤ exact, and the
 * missing mass per node is below epsilon × its strength) and the nodes it touched.
 */
export function pushPageRank(g: Csr, reset: Float32Array, damping: number, epsilon: number, maxPushes = 200_000): { p: Float32Array; touched: Int32Array } {
  const { n, ptr, col, weight, strength } = g;
  let total = 0;
  for (let i = 0; i < n; i++) total += reset[i]!;
  const p = new Float32Array(n);
  const r = new Float64Array(n);
  const queued = new Uint8Array(n);
  const seen = new Uint8Array(n);
  const touched: number[] = [];
  let queue = new Int32Array(64);
  let head = 0;
  let tail = 0;
  const enqueue = (u: number) => {
    if (tail === queue.length) {
      const live = queue.subarray(head, tail);
      const grown = new Int32Array(Math.max(64, live.length * 2));
      grown.set(live);
      queue = grown;
      tail -= head;
      head = 0;
    }
    queue[tail++] = u;
    queued[u] = 1;
  };
  const touch = (u: number) => {
    if (!seen[u]) {
      seen[u] = 1;
      touched.push(u);
    }
  };
  if (total <= 0) return { p, touched: new Int32Array(0) };
  for (let i = 0; i < n; i++) {
    if (reset[i]! <= 0) continue;
    r[i] = reset[i]! / total;
    touch(i);
    enqueue(i);
  }
  let pushes = 0;
  while (head < tail && pushes < maxPushes) {
    const u = queue[head++]!;
    queued[u] = 0;
    const ru = r[u]!;
    const s = strength[u]!;
    if (s === 0) {
      p[u]! += ru;
      r[u] = 0;
      continue;
    }
    if (ru < epsilon * s) continue;
    pushes++;
    p[u]! += (1 - damping) * ru;
    r[u] = 0;
    const share = (damping * ru) / s;
    for (let j = ptr[u]!; j < ptr[u + 1]!; j++) {
      const v = col[j]!;
      r[v]! += share * weight[j]!;
      touch(v);
      if (!queued[v] && r[v]! >= epsilon * strength[v]!) enqueue(v);
    }
  }
  return { p, touched: Int32Array.from(touched) };
}
