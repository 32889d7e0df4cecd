import type { Scored, VectorMatrix } from '../../embed/vector-matrix.js';

/** Rows handled between two turns of the event loop. */
const YIELD_EVERY = 256;

/**
 * The K nearest neighbours of every row, exactly as `docs.search` finds them one row at a time, for
 * half the multiply-adds: each pair's dot product is computed once and offered to both rows' lists.
 * A row is offered its candidates in row order either way (those before it while their rows are
 * computed, those after it in its own), and each list is kept with topK's own heap rules on the same
 * float32 scores — so the lists, ties and order included, are those of the one-row-at-a-time search.
 */
export async function exactNeighbours(m: VectorMatrix, k: number): Promise<Map<number, Scored[]>> {
  const { dim, size, data, ids } = m;
  const heaps = Array.from({ length: size }, () => new TopK(k));
  for (let r = 0; r < size; r++) {
    const base = r * dim;
    const mine = heaps[r]!;
    for (let o = r + 1; o < size; o++) {
      let s = 0;
      for (let d = 0, ob = o * dim; d < dim; d++, ob++) s += data[ob]! * data[base + d]!;
      const score = Math.fround(s);
      mine.offer(score, ids[o]!);
      heaps[o]!.offer(score, ids[r]!);
    }
    if (r % YIELD_EVERY === 0) await turn();
  }
  const out = new Map<number, Scored[]>();
  heaps.forEach((h, r) => out.set(ids[r]!, h.sorted()));
  return out;
}

/** topK's bounded min-heap (vector-matrix.ts), fed one candidate at a time. */
class TopK {
  private readonly scores: number[] = [];
  private readonly ids: number[] = [];

  constructor(private readonly k: number) {}

  offer(s: number, id: number): void {
    const { scores, ids, k } = this;
    if (k <= 0) return;
    if (scores.length === k && s <= scores[0]!) return;
    if (scores.length < k) {
      scores.push(s);
      ids.push(id);
      let i = scores.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (scores[p]! <= scores[i]!) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    scores[0] = s;
    ids[0] = id;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < scores.length && scores[l]! < scores[m]!) m = l;
      if (r < scores.length && scores[r]! < scores[m]!) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  sorted(): Scored[] {
    return this.ids.map((id, i) => ({ id, score: this.scores[i]! })).sort((a, b) => b.score - a.score);
  }

  private swap(i: number, j: number): void {
    const { scores, ids } = this;
    [scores[i], scores[j]] = [scores[j]!, scores[i]!];
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
}

function turn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
