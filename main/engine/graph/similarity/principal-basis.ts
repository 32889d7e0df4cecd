import { seededUniform } from './seeded-random.js';

/**
 * `k` orthonormal directions spanning most of the rows' variance: subspace iteration on the centred
 * rows (a sample of them past a few thousand), from a seeded start, so the same rows give the same basis.
 */
export function principalBasis(data: Float32Array, size: number, dim: number, k: number): Float32Array {
  const step = Math.max(1, Math.floor(size / 2000));
  const mean = new Float64Array(dim);
  let n = 0;
  for (let r = 0; r < size; r += step, n++) for (let d = 0; d < dim; d++) mean[d]! += data[r * dim + d]!;
  for (let d = 0; d < dim; d++) mean[d]! /= Math.max(1, n);
  const rand = seededUniform(0x2545f491);
  let q = Float64Array.from({ length: k * dim }, rand);
  orthonormalise(q, k, dim);
  const coords = new Float64Array(k);
  // The sampled rows, centred once (the same doubles the loops below would compute per use).
  const rows = Math.ceil(size / step);
  const centred = new Float64Array(rows * dim);
  for (let r = 0, i = 0; r < size; r += step) for (let d = 0; d < dim; d++, i++) centred[i] = data[r * dim + d]! - mean[d]!;
  for (let it = 0; it < 4; it++) {
    const next = new Float64Array(k * dim);
    for (let base = 0; base < rows * dim; base += dim) {
      project(centred, base, dim, q, k, coords, 0);
      let j = 0;
      for (; j + 4 <= k; j += 4) {
        const c0 = coords[j]!;
        const c1 = coords[j + 1]!;
        const c2 = coords[j + 2]!;
        const c3 = coords[j + 3]!;
        for (let d = 0, p = j * dim; d < dim; d++, p++) {
          const x = centred[base + d]!;
          next[p]! += c0 * x;
          next[p + dim]! += c1 * x;
          next[p + 2 * dim]! += c2 * x;
          next[p + 3 * dim]! += c3 * x;
        }
      }
      for (; j < k; j++) {
        const c = coords[j]!;
        for (let d = 0; d < dim; d++) next[j * dim + d]! += c * centred[base + d]!;
      }
    }
    orthonormalise(next, k, dim);
    q = next;
  }
  return Float32Array.from(q);
}

/**
 * Each row's coordinates on the rows' `k` principal directions (row-major). Projection onto orthonormal
 * directions never lengthens a difference, so a pair search can skip a pair whose projections lie too
 * far apart without its full dot product, and miss nothing (lsh-pairs.ts).
 */
export function principalCoordinates(data: Float32Array, size: number, dim: number, k: number): Float32Array {
  const basis = principalBasis(data, size, dim, k);
  const coords = new Float32Array(size * k);
  for (let r = 0; r < size; r++) projectRow(data, dim, r, basis, k, coords);
  return coords;
}

/** Row `r` of `data` (rows of `dim`) on the `k` directions of `basis`, written to `out` from `r * k`. */
export function projectRow(data: Float32Array, dim: number, r: number, basis: Float32Array, k: number, out: Float32Array): void {
  project(data, r * dim, dim, basis, k, out, r * k);
}

type Floats = Float32Array | Float64Array;

/** The `dim` values of `x` from `from`, on the `k` directions of `basis`, written to `out` from `at`. */
function project(x: Floats, from: number, dim: number, basis: Floats, k: number, out: Floats, at: number): void {
  // Four directions per pass over the row; each sum still adds in the same order.
  let j = 0;
  for (; j + 4 <= k; j += 4) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let d = 0, b = j * dim; d < dim; d++, b++) {
      const v = x[from + d]!;
      s0 += v * basis[b]!;
      s1 += v * basis[b + dim]!;
      s2 += v * basis[b + 2 * dim]!;
      s3 += v * basis[b + 3 * dim]!;
    }
    out[at + j] = s0;
    out[at + j + 1] = s1;
    out[at + j + 2] = s2;
    out[at + j + 3] = s3;
  }
  for (; j < k; j++) {
    let s = 0;
    for (let d = 0, b = j * dim; d < dim; d++, b++) s += x[from + d]! * basis[b]!;
    out[at + j] = s;
  }
}

/** Gram–Schmidt on k rows of length dim; a row that vanishes is replaced by the next unit axis that does not. */
function orthonormalise(q: Float64Array, k: number, dim: number): void {
  let axis = 0;
  for (let j = 0; j < k; j++) {
    for (;;) {
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i < j; i++) {
          let p = 0;
          for (let d = 0; d < dim; d++) p += q[j * dim + d]! * q[i * dim + d]!;
          for (let d = 0; d < dim; d++) q[j * dim + d]! -= p * q[i * dim + d]!;
        }
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += q[j * dim + d]! ** 2;
      norm = Math.sqrt(norm);
      if (norm >= 1e-9) {
        for (let d = 0; d < dim; d++) q[j * dim + d]! /= norm;
        break;
      }
      if (axis >= dim) {
        q.fill(0, j * dim, (j + 1) * dim); // no direction left: a zero row bounds nothing, which is safe
        break;
      }
      for (let d = 0; d < dim; d++) q[j * dim + d] = d === axis ? 1 : 0;
      axis++;
    }
  }
}
