import { VectorMatrix } from '../../embed/vector-matrix.js';
import type { SimilarPair } from './similar-pairs.js';
import { seededUniform } from './seeded-random.js';

/**
 * Approximate similar pairs for large sets: random-hyperplane LSH (SimHash) over the mean-centred
 * vectors — sentence embeddings share a large common component, and hashing without removing it puts
 * everything in a few buckets. Candidates sharing a bucket in any table get the exact cosine.
 * With 16 tables the chance of missing a pair at the fact threshold (0.98) is well under 1%.
 */
export async function lshPairs(
  m: VectorMatrix,
  threshold: number,
  allow?: (a: number, b: number) => boolean,
  tables = 16,
  near?: Projections,
): Promise<SimilarPair[]> {
  const out: SimilarPair[] = [];
  // A turn of the event loop per table: at 100k+ facts a table takes seconds.
  for (const _ of lshTables(m, threshold, out, allow, tables, near)) await new Promise<void>((r) => setImmediate(r));
  return out;
}

/**
 * Each row's coordinates on `k` orthonormal directions (row-major, aligned with the matrix rows).
 * Projection never lengthens a difference, so a candidate pair whose projections lie farther apart than
 * unit vectors at the threshold can be is skipped without its full dot product — and no pair is lost.
 */
export interface Projections {
  k: number;
  coords: Float32Array;
}

/** The same pairs in one go, for small sets built on a query's path (entity synonyms). */
export function lshPairsSync(m: VectorMatrix, threshold: number, allow?: (a: number, b: number) => boolean, tables = 16, near?: Projections): SimilarPair[] {
  const out: SimilarPair[] = [];
  for (const _ of lshTables(m, threshold, out, allow, tables, near));
  return out;
}

/**
 * SimHash tables over the mean-centred rows: each step yields one table's buckets (row indexes sharing a
 * `bits`-bit hash). Seeded, so a rebuild finds the same candidates.
 */
export function* simhashTables(m: VectorMatrix, bits: number, tables: number, seed: number): Generator<Map<number, number[]>> {
  const { dim, size, data } = m;
  const mean = new Float32Array(dim);
  for (let r = 0; r < size; r++) for (let d = 0; d < dim; d++) mean[d]! += data[r * dim + d]! / size;
  const rand = seededUniform(seed);
  // The centred row, computed once per row and table rather than once per bit (the same doubles, so the
  // same keys).
  const centred = new Float64Array(dim);
  for (let t = 0; t < tables; t++) {
    const planes = Float32Array.from({ length: bits * dim }, rand);
    const buckets = new Map<number, number[]>();
    for (let r = 0; r < size; r++) {
      for (let d = 0, i = r * dim; d < dim; d++, i++) centred[d] = data[i]! - mean[d]!;
      let key = 0;
      let b = 0;
      // Four planes per pass over the row: each sum still adds its products in the same order, so the
      // keys are the same, for a quarter of the reads of the row (this loop is most of a fact rebuild).
      for (; b + 4 <= bits; b += 4) {
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let d = 0, p = b * dim; d < dim; d++, p++) {
          const c = centred[d]!;
          s0 += c * planes[p]!;
          s1 += c * planes[p + dim]!;
          s2 += c * planes[p + 2 * dim]!;
          s3 += c * planes[p + 3 * dim]!;
        }
        if (s0 > 0) key |= 1 << b;
        if (s1 > 0) key |= 1 << (b + 1);
        if (s2 > 0) key |= 1 << (b + 2);
        if (s3 > 0) key |= 1 << (b + 3);
      }
      for (; b < bits; b++) {
        let s = 0;
        for (let d = 0, p = b * dim; d < dim; d++, p++) s += centred[d]! * planes[p]!;
        if (s > 0) key |= 1 << b;
      }
      let list = buckets.get(key);
      if (!list) buckets.set(key, (list = []));
      list.push(r);
    }
    yield buckets;
  }
}

/** Hashes one table per step, appending the pairs it finds to `out`. */
function* lshTables(
  m: VectorMatrix,
  threshold: number,
  out: SimilarPair[],
  allow: ((a: number, b: number) => boolean) | undefined,
  tables: number,
  near: Projections | undefined,
): Generator<number> {
  const { dim, size, data, ids } = m;
  const reach = 2 * (1 - threshold) + 1e-4;
  const k = near?.k ?? 0;
  const coords = near?.coords;
  const found = new Set<number>();
  // A bucket of many near-identical rows (boilerplate) needs no all-pairs: a window keeps it connected.
  const WINDOW = 64;
  let t = 0;
  for (const buckets of simhashTables(m, threshold >= 0.97 ? 12 : 8, tables, 0x9e3779b9)) {
    yield t++;
    for (const rows of buckets.values()) {
      for (let i = 0; i < rows.length; i++) {
        for (let j = i + 1; j < rows.length && j <= i + WINDOW; j++) {
          const ri = Math.min(rows[i]!, rows[j]!);
          const rj = Math.max(rows[i]!, rows[j]!);
          if (coords) {
            let far = 0;
            for (let c = 0, a = ri * k, b = rj * k; c < k && far <= reach; c++, a++, b++) {
              const diff = coords[a]! - coords[b]!;
              far += diff * diff;
            }
            if (far > reach) continue;
          }
          let s = 0;
          for (let d = 0; d < dim; d++) s += data[ri * dim + d]! * data[rj * dim + d]!;
          if (s < threshold) continue;
          // Only pairs above the threshold are remembered (a pair may meet again in another table):
          // recording every candidate would outgrow a Set at 10k documents.
          const key = ri * size + rj;
          if (found.has(key)) continue;
          found.add(key);
          if (allow && !allow(ids[ri]!, ids[rj]!)) continue;
          out.push({ a: ids[ri]!, b: ids[rj]!, sim: s });
        }
      }
    }
  }
}
