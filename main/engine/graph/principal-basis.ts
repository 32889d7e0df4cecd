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
  for (let it = 0; it < 4; it++) {
    const next = new Float64Array(k * dim);
    for (let r = 0; r < size; r += step) {
      const base = r * dim;
      for (let j = 0; j < k; j++) {
        let s = 0;
        for (let d = 0; d < dim; d++) s += (data[base + d]! - mean[d]!) * q[j * dim + d]!;
        coords[j] = s;
      }
      for (let j = 0; j < k; j++) {
        const c = coords[j]!;
        for (let d = 0; d < dim; d++) next[j * dim + d]! += c * (data[base + d]! - mean[d]!);
      }
    }
    orthonormalise(next, k, dim);
    q = next;
  }
  return Float32Array.from(q);
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
