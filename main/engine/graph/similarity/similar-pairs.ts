import { VectorMatrix } from '../../embed/vector-matrix.js';

export interface SimilarPair {
  a: number;
  b: number;
  sim: number;
}

/**
 * All pairs with cosine ≥ threshold, without comparing all pairs. For unit vectors, cos ≥ t implies
 * ‖a − b‖ ≤ r = √(2(1 − t)), and so |a·u − b·u| ≤ r for any unit direction u. Rows are sorted by their
 * projection on the data's principal direction (where they spread most) and only rows within r of each
 * other on it — and on a second principal direction, as a cheap filter — get the exact dot product.
 * Exact: no pair above the threshold is missed.
 */
export async function similarPairs(m: VectorMatrix, threshold: number, allow?: (a: number, b: number) => boolean): Promise<SimilarPair[]> {
  const n = m.size;
  if (n < 2) return [];
  const dim = m.dim;
  const radius = Math.sqrt(Math.max(0, 2 * (1 - threshold))) + 1e-6;
  const u1 = principalDirection(m, null);
  const u2 = principalDirection(m, u1);
  const p1 = project(m, u1);
  const p2 = project(m, u2);
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => p1[x]! - p1[y]!);
  const out: SimilarPair[] = [];
  const data = m.data;
  for (let i = 0; i < n; i++) {
    // A turn of the event loop now and then, so calls and progress go on during the graph step.
    if (i % 2048 === 2047) await new Promise<void>((r) => setImmediate(r));
    const ri = order[i]!;
    for (let j = i + 1; j < n; j++) {
      const rj = order[j]!;
      if (p1[rj]! - p1[ri]! > radius) break;
      if (Math.abs(p2[rj]! - p2[ri]!) > radius) continue;
      let s = 0;
      const bi = ri * dim;
      const bj = rj * dim;
      for (let d = 0; d < dim; d++) s += data[bi + d]! * data[bj + d]!;
      if (s < threshold) continue;
      const a = m.ids[ri]!;
      const b = m.ids[rj]!;
      if (allow && !allow(a, b)) continue;
      out.push({ a, b, sim: s });
    }
  }
  return out;
}

function project(m: VectorMatrix, u: Float32Array): Float32Array {
  const out = new Float32Array(m.size);
  for (let r = 0; r < m.size; r++) {
    let s = 0;
    const base = r * m.dim;
    for (let d = 0; d < m.dim; d++) s += m.data[base + d]! * u[d]!;
    out[r] = s;
  }
  return out;
}

/** Power iteration on the centred rows (optionally orthogonal to `exclude`); deterministic start. */
function principalDirection(m: VectorMatrix, exclude: Float32Array | null): Float32Array {
  const { dim, size, data } = m;
  const mean = new Float32Array(dim);
  for (let r = 0; r < size; r++) for (let d = 0; d < dim; d++) mean[d]! += data[r * dim + d]! / size;
  let u: Float32Array = new Float32Array(dim).map((_, d) => Math.sin(d * 12.9898 + 1) || 1);
  const orthonormalise = (v: Float32Array): Float32Array => {
    if (exclude) {
      let p = 0;
      for (let d = 0; d < dim; d++) p += v[d]! * exclude[d]!;
      for (let d = 0; d < dim; d++) v[d]! -= p * exclude[d]!;
    }
    let s = 0;
    for (let d = 0; d < dim; d++) s += v[d]! * v[d]!;
    const norm = Math.sqrt(s) || 1;
    for (let d = 0; d < dim; d++) v[d]! /= norm;
    return v;
  };
  u = orthonormalise(u);
  const step = Math.max(1, Math.floor(size / 4000)); // a sample is plenty to find the direction
  for (let it = 0; it < 8; it++) {
    const next = new Float32Array(dim);
    for (let r = 0; r < size; r += step) {
      let p = 0;
      const base = r * dim;
      for (let d = 0; d < dim; d++) p += (data[base + d]! - mean[d]!) * u[d]!;
      for (let d = 0; d < dim; d++) next[d]! += p * (data[base + d]! - mean[d]!);
    }
    u = orthonormalise(next);
  }
  return u;
}
