import { describe, expect, it } from 'vitest';
import { VectorMatrix } from '../../main/engine/embed/vector-matrix.js';
import { normalize } from '../../main/engine/embed/embedder.js';
import { similarPairs } from '../../main/engine/graph/similar-pairs.js';
import { updateDocEdges } from '../../main/engine/graph/doc-edges.js';
import { openDb } from '../../main/engine/store/db.js';
import { reciprocalRankFusion } from '../../main/engine/retrieve/hybrid.js';

/** Deterministic pseudo-random unit vectors clustered around a few centres (like sentence embeddings). */
function clustered(n: number, dim: number, seed: number): { id: number; vector: Float32Array }[] {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const centres = Array.from({ length: 5 }, () => Float32Array.from({ length: dim }, rand));
  return Array.from({ length: n }, (_, i) => {
    const c = centres[i % centres.length];
    const noise = (i % 7) * 0.02;
    return { id: i + 1, vector: normalize(Float32Array.from(c, (x) => x + rand() * noise)) };
  });
}

describe('similarPairs', () => {
  it('finds exactly the pairs a brute-force comparison finds', () => {
    const entries = clustered(400, 32, 7);
    const m = new VectorMatrix(32, entries);
    for (const threshold of [0.92, 0.98]) {
      const expected = new Set<string>();
      for (let i = 0; i < entries.length; i++)
        for (let j = i + 1; j < entries.length; j++) {
          if (m.similarity(entries[i].id, entries[j].id) >= threshold) expected.add(`${entries[i].id}-${entries[j].id}`);
        }
      const found = new Set(similarPairs(m, threshold).map((p) => `${Math.min(p.a, p.b)}-${Math.max(p.a, p.b)}`));
      expect(expected.size).toBeGreaterThan(0);
      expect(found).toEqual(expected);
    }
  });
});

describe('updateDocEdges', () => {
  it('gives the same edges incrementally as a full rebuild', () => {
    const db = openDb(':memory:');
    const entries = clustered(60, 16, 3);
    const insertDoc = db.prepare("INSERT INTO documents (id, root, rel_path, status) VALUES (?, 'r', ?, 'indexed')");
    for (const e of entries) insertDoc.run(e.id, `${e.id}.md`);
    const all = new VectorMatrix(16, entries);
    updateDocEdges(db, new VectorMatrix(16, entries.slice(0, 50)), 'all');
    // Ten documents arrive, and one existing one moves to another cluster.
    const moved = { id: 5, vector: entries[1].vector };
    const next = [...entries.slice(0, 50).map((e) => (e.id === 5 ? moved : e)), ...entries.slice(50)];
    const changed = new Set([5, ...entries.slice(50).map((e) => e.id)]);
    updateDocEdges(db, new VectorMatrix(16, next), changed);
    const incremental = db.prepare('SELECT src, dst FROM doc_edges ORDER BY src, dst').all();
    db.prepare('DELETE FROM doc_edges').run();
    updateDocEdges(db, new VectorMatrix(16, next), 'all');
    expect(db.prepare('SELECT src, dst FROM doc_edges ORDER BY src, dst').all()).toEqual(incremental);
    expect(all.size).toBe(60);
    db.close();
  });
});

describe('reciprocalRankFusion', () => {
  it('ranks an item high in both lists above items high in one', () => {
    const fused = reciprocalRankFusion(
      [
        [{ id: 1, score: 9 }, { id: 2, score: 8 }, { id: 3, score: 7 }],
        [{ id: 2, score: 9 }, { id: 4, score: 8 }, { id: 1, score: 1 }],
      ],
      3,
    );
    expect(fused.map((f) => f.id)).toEqual([2, 1, 4]);
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 6);
  });
});
