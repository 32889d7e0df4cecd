import { createHash } from 'node:crypto';
import { dot } from './embedder.js';

export interface Scored {
  id: number;
  score: number;
}

/**
 * Unit vectors in one contiguous Float32Array, searched by exact cosine (a dot product).
 * Brute force is exact and, at 100–768 dims, a few ms per query at 50k rows: simpler and faster to
 * build than an ANN index at note-folder scale.
 */
export class VectorMatrix {
  readonly ids: Int32Array;
  readonly data: Float32Array;
  private readonly rowOf = new Map<number, number>();

  /** From entries, or from rows already laid out (`data` holds `ids.length` rows of `dim` floats). */
  constructor(readonly dim: number, entries: { id: number; vector: Float32Array }[] | { ids: Int32Array; data: Float32Array }) {
    if (!Array.isArray(entries)) {
      this.ids = entries.ids;
      this.data = entries.data;
      this.ids.forEach((id, row) => this.rowOf.set(id, row));
      return;
    }
    this.ids = new Int32Array(entries.length);
    this.data = new Float32Array(entries.length * dim);
    entries.forEach((e, row) => {
      this.ids[row] = e.id;
      this.data.set(e.vector, row * dim);
      this.rowOf.set(e.id, row);
    });
  }

  get size(): number {
    return this.ids.length;
  }

  vector(id: number): Float32Array | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.data.subarray(row * this.dim, (row + 1) * this.dim);
  }

  /** Cosine of every row with q (q must be unit length). */
  scores(q: Float32Array): Float32Array {
    const n = this.ids.length;
    const dim = this.dim;
    const out = new Float32Array(n);
    const data = this.data;
    for (let r = 0; r < n; r++) {
      let s = 0;
      const base = r * dim;
      for (let i = 0; i < dim; i++) s += data[base + i]! * q[i]!;
      out[r] = s;
    }
    return out;
  }

  /** Top-k rows by cosine, best first; `filter` drops ids (e.g. the query's own row). */
  search(q: Float32Array, k: number, filter?: (id: number) => boolean): Scored[] {
    return topK(this.scores(q), this.ids, k, filter);
  }

  /**
   * A hash of the rows (ids and vectors, SHA-1 over their bytes): equal for the same rows, so what was
   * derived from them (a graph's synonym pairs) can outlast an index change that left them as they were.
   */
  contentHash(): string {
    // Native: a hash in script over the 3.7M numbers of 37k names took 45 ms.
    const h = createHash('sha1');
    h.update(new Uint8Array(this.ids.buffer, this.ids.byteOffset, this.ids.byteLength));
    h.update(new Uint8Array(this.data.buffer, this.data.byteOffset, this.data.byteLength));
    return `${this.dim}:${this.size}:${h.digest('hex')}`;
  }

  similarity(a: number, b: number): number {
    const va = this.vector(a);
    const vb = this.vector(b);
    return va && vb ? dot(va, vb) : 0;
  }
}

function swap(a: number[], i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** Top-k of a score array with a bounded min-heap: O(n log k), no full sort. */
export function topK(scores: Float32Array, ids: Int32Array, k: number, filter?: (id: number) => boolean): Scored[] {
  if (k <= 0) return [];
  const heapIds: number[] = [];
  const heapScores: number[] = [];
  const siftDown = (i: number) => {
    const n = heapScores.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && heapScores[l]! < heapScores[m]!) m = l;
      if (r < n && heapScores[r]! < heapScores[m]!) m = r;
      if (m === i) return;
      swap(heapScores, i, m);
      swap(heapIds, i, m);
      i = m;
    }
  };
  const siftUp = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapScores[p]! <= heapScores[i]!) return;
      swap(heapScores, i, p);
      swap(heapIds, i, p);
      i = p;
    }
  };
  for (let r = 0; r < scores.length; r++) {
    const s = scores[r]!;
    if (heapScores.length === k && s <= heapScores[0]!) continue;
    const id = ids[r]!;
    if (filter && !filter(id)) continue;
    if (heapScores.length < k) {
      heapScores.push(s);
      heapIds.push(id);
      siftUp(heapScores.length - 1);
    } else {
      heapScores[0] = s;
      heapIds[0] = id;
      siftDown(0);
    }
  }
  return heapIds.map((id, i) => ({ id, score: heapScores[i]! })).sort((a, b) => b.score - a.score);
}
