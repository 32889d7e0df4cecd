import { describe, expect, it } from 'vitest';
import { dot, normalize } from '../../main/engine/embed/embedder.js';
import { topK, VectorMatrix } from '../../main/engine/embed/vector-matrix.js';

/** Seeded so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function randomUnit(dim: number, rand: () => number): Float32Array {
  return normalize(Float32Array.from({ length: dim }, () => rand() * 2 - 1));
}

/** The obvious reference: score everything, sort everything. */
function bySort(scores: Float32Array, ids: Int32Array, k: number, filter?: (id: number) => boolean) {
  return Array.from(scores, (score, r) => ({ id: ids[r]!, score }))
    .filter((x) => !filter || filter(x.id))
    .sort((a, b) => b.score - a.score)
    .slice(0, Math.max(0, k));
}

describe('topK', () => {
  it('agrees with a full sort on random scores for many k, with and without a filter', () => {
    const rand = rng(42);
    for (const n of [0, 1, 7, 100, 5000]) {
      const scores = Float32Array.from({ length: n }, () => rand() * 2 - 1);
      const ids = Int32Array.from({ length: n }, (_, i) => 1000 + i * 3);
      for (const k of [0, 1, 3, 10, 99, n, n + 5]) {
        expect(topK(scores, ids, k)).toEqual(bySort(scores, ids, k));
        const even = (id: number) => id % 2 === 0;
        expect(topK(scores, ids, k, even)).toEqual(bySort(scores, ids, k, even));
      }
    }
  });

  it('keeps every tied score up to k', () => {
    const scores = Float32Array.from([0.5, 0.9, 0.5, 0.5, 0.1]);
    const ids = Int32Array.from([1, 2, 3, 4, 5]);
    const top = topK(scores, ids, 3);
    expect(top.map((x) => x.score)).toEqual([Math.fround(0.9), 0.5, 0.5]);
    expect(new Set(top.map((x) => x.id)).size).toBe(3);
  });
});

describe('VectorMatrix', () => {
  const dim = 64;
  const rand = rng(7);
  const entries = Array.from({ length: 2000 }, (_, i) => ({ id: i * 5 + 1, vector: randomUnit(dim, rand) }));
  const m = new VectorMatrix(dim, entries);

  it('scores every row by cosine and returns the same top-k as sorting all rows', () => {
    for (let q = 0; q < 20; q++) {
      const query = randomUnit(dim, rand);
      const expected = entries.map((e) => ({ id: e.id, score: dot(e.vector, query) })).sort((a, b) => b.score - a.score);
      const got = m.search(query, 10);
      expect(got.map((x) => x.id)).toEqual(expected.slice(0, 10).map((x) => x.id));
      got.forEach((x, i) => expect(x.score).toBeCloseTo(expected[i]!.score, 5));
    }
  });

  it('finds a stored vector first, and drops it when filtered', () => {
    const target = entries[1234]!;
    expect(m.search(target.vector, 1)[0]).toMatchObject({ id: target.id });
    expect(m.search(target.vector, 1)[0]!.score).toBeCloseTo(1, 5);
    const others = m.search(target.vector, 5, (id) => id !== target.id);
    expect(others.map((x) => x.id)).not.toContain(target.id);
    expect(others).toHaveLength(5);
  });

  it('looks vectors up by id and measures similarity between two ids', () => {
    expect(m.size).toBe(entries.length);
    expect(Array.from(m.vector(entries[3]!.id)!)).toEqual(Array.from(entries[3]!.vector));
    expect(m.vector(2)).toBeUndefined();
    expect(m.similarity(entries[0]!.id, entries[1]!.id)).toBeCloseTo(dot(entries[0]!.vector, entries[1]!.vector), 6);
    expect(m.similarity(entries[0]!.id, 2)).toBe(0);
  });
});
