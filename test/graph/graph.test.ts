import { describe, expect, it } from 'vitest';
import { VectorMatrix } from '../../main/engine/embed/vector-matrix.js';
import { normalize } from '../../main/engine/embed/embedder.js';
import { similarPairs } from '../../main/engine/graph/similarity/similar-pairs.js';
import { lshPairs, lshPairsSync } from '../../main/engine/graph/similarity/lsh-pairs.js';
import { synonymPairs } from '../../main/engine/graph/walk/entity-graph.js';
import { updateFusion } from '../../main/engine/graph/pseudo/fusion.js';
import { fusionNodes } from '../../main/engine/graph/pseudo/fusion-nodes.js';
import { writeEmbeddings } from '../../main/engine/store/embeddings.js';
import { updateDocEdges } from '../../main/engine/graph/hig/doc-edges.js';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { reciprocalRankFusion } from '../../main/engine/retrieve/hybrid.js';
import { at, must } from '../support/must.js';

/**
 * One note per three entries: a topic (the first) with two facts, the entries' vectors written as the
 * mind-map embeddings. Returns the node insert, for tests that edit a note the way the indexer does.
 */
function writeTopicNotes(db: Db, entries: { id: number; vector: Float32Array }[], notes: number) {
  const insertDoc = db.prepare("INSERT INTO documents (id, root, rel_path, status) VALUES (?, 'r', ?, 'indexed')");
  const insertNode = db.prepare("INSERT INTO mm_nodes (id, document_id, parent_id, kind, text, path_text, depth, ord, extractor) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'fast')");
  for (let d = 1; d <= notes; d++) {
    insertDoc.run(d, `${d}.md`);
    const [t, f1, f2] = [at(entries, (d - 1) * 3), at(entries, (d - 1) * 3 + 1), at(entries, (d - 1) * 3 + 2)] as const;
    insertNode.run(t.id, d, null, 'topic', `t${t.id}`, `t${t.id}`, 0);
    insertNode.run(f1.id, d, t.id, 'fact', `f${f1.id}`, `f${f1.id}`, 1);
    insertNode.run(f2.id, d, t.id, 'fact', `f${f2.id}`, `f${f2.id}`, 1);
  }
  writeEmbeddings(db, 'mm', 'test', entries);
  return insertNode;
}

/** Deterministic pseudo-random unit vectors clustered around a few centres (like sentence embeddings). */
function clustered(n: number, dim: number, seed: number): { id: number; vector: Float32Array }[] {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const centres = Array.from({ length: 5 }, () => Float32Array.from({ length: dim }, rand));
  return Array.from({ length: n }, (_, i) => {
    const c = at(centres, i % centres.length);
    const noise = (i % 7) * 0.02;
    return { id: i + 1, vector: normalize(Float32Array.from(c, (x) => x + rand() * noise)) };
  });
}

describe('similarPairs', () => {
  it('finds exactly the pairs a brute-force comparison finds', async () => {
    const entries = clustered(400, 32, 7);
    const m = new VectorMatrix(32, entries);
    for (const threshold of [0.92, 0.98]) {
      const expected = new Set<string>();
      for (let i = 0; i < entries.length; i++)
        for (let j = i + 1; j < entries.length; j++) {
          const [a, b] = [at(entries, i).id, at(entries, j).id];
          if (m.similarity(a, b) >= threshold) expected.add(`${a}-${b}`);
        }
      const found = new Set((await similarPairs(m, threshold)).map((p) => `${Math.min(p.a, p.b)}-${Math.max(p.a, p.b)}`));
      expect(expected.size).toBeGreaterThan(0);
      expect(found).toEqual(expected);
    }
  });
});

describe('lshPairs', () => {
  it('finds nearly all the pairs the exact query finds, and nothing below the threshold', async () => {
    const entries = clustered(1200, 64, 11);
    const m = new VectorMatrix(64, entries);
    for (const threshold of [0.92, 0.98]) {
      const exact = await similarPairs(m, threshold);
      const approx = await lshPairs(m, threshold);
      const key = (p: { a: number; b: number }) => `${Math.min(p.a, p.b)}-${Math.max(p.a, p.b)}`;
      const exactKeys = new Set(exact.map(key));
      expect(approx.every((p) => p.sim >= threshold && exactKeys.has(key(p)))).toBe(true);
      // Buckets are walked with a window, so connectivity (not every pair) is what must survive:
      // every node the exact query pairs must be paired by LSH too.
      const nodes = (pairs: typeof exact) => new Set(pairs.flatMap((p) => [p.a, p.b]));
      const approxNodes = nodes(approx);
      const covered = [...nodes(exact)].filter((n) => approxNodes.has(n)).length;
      expect(covered / nodes(exact).size).toBeGreaterThan(0.97);
    }
  });
});

describe('the entity graph’s synonym pairs', () => {
  it('are the same pairs, in the same order, when candidates are first compared on principal coordinates', () => {
    // Above the size where the graph compares on principal coordinates first.
    const entries = clustered(12_000, 48, 5);
    const m = new VectorMatrix(48, entries);
    const plain = lshPairsSync(m, 0.92, undefined, 2);
    const projected = synonymPairs(m, 0.92);
    expect(plain.length).toBeGreaterThan(100);
    expect(projected).toEqual(plain);
  });
});

describe('updateFusion', () => {
  it('merging a changed note gives the same super nodes as rebuilding them all', async () => {
    const db = openDb(':memory:');
    const dim = 16;
    const entries = clustered(120, dim, 5);
    // 40 notes, each a topic with two facts; vectors from the clusters so cross-note groups exist.
    const insertNode = writeTopicNotes(db, entries, 40);
    const thresholds = { topic: 0.9, fact: 0.9 };
    const partition = () =>
      (db.prepare('SELECT group_concat(node_id) AS g FROM (SELECT super_id, node_id FROM super_members ORDER BY node_id) GROUP BY super_id').pluck().all() as string[]).sort();
    // Note 7 is edited: its old nodes go (as the indexer deletes them) and new ones arrive.
    await updateFusion(db, 'test', 'all', thresholds);
    db.prepare('DELETE FROM mm_nodes WHERE document_id = 7 AND parent_id IS NOT NULL').run();
    db.prepare('DELETE FROM mm_nodes WHERE document_id = 7').run();
    const fresh = clustered(3, dim, 99).map((e, i) => ({ id: 1000 + i, vector: at(entries, i * 5).vector }));
    insertNode.run(1000, 7, null, 'topic', 't1000', 't1000', 0);
    insertNode.run(1001, 7, 1000, 'fact', 'f1001', 'f1001', 1);
    insertNode.run(1002, 7, 1000, 'fact', 'f1002', 'f1002', 1);
    writeEmbeddings(db, 'mm', 'test', fresh);
    await updateFusion(db, 'test', new Set([7]), thresholds);
    const incremental = partition();
    await updateFusion(db, 'test', 'all', thresholds);
    expect(incremental.length).toBeGreaterThan(0);
    expect(incremental).toEqual(partition());
    db.close();
  });
});

describe('updateFusion with the nodes kept from the last step', () => {
  // 550 notes, each a topic and two facts: over a thousand facts, so the kept facts are projected.
  const dim = 32;
  const entries = clustered(1650, dim, 13);
  function build() {
    const db = openDb(':memory:');
    const insertNode = writeTopicNotes(db, entries, 550);
    // Note 7 is edited the way the indexer does it: old nodes deleted, new ones (near other notes') written.
    const edit = () => {
      db.prepare('DELETE FROM mm_nodes WHERE document_id = 7 AND parent_id IS NOT NULL').run();
      db.prepare('DELETE FROM mm_nodes WHERE document_id = 7').run();
      insertNode.run(5000, 7, null, 'topic', 't5000', 't5000', 0);
      insertNode.run(5001, 7, 5000, 'fact', 'f5001', 'f5001', 1);
      insertNode.run(5002, 7, 5000, 'fact', 'f5002', 'f5002', 1);
      writeEmbeddings(db, 'mm', 'test', [5000, 5001, 5002].map((id, i) => ({ id, vector: at(entries, 30 + i * 4).vector })));
    };
    const groups = () => db.prepare('SELECT s.id, s.kind, s.text, m.node_id, m.sim FROM super_nodes s JOIN super_members m ON m.super_id = s.id ORDER BY s.id, m.node_id').all();
    return { db, edit, groups };
  }
  const thresholds = { topic: 0.9, fact: 0.95 };
  /** Two copies of the index, fused in full (one keeping its nodes under stamp s1), then note 7 edited in both. */
  async function fusedThenEdited() {
    const kept = build();
    const fresh = build();
    await updateFusion(kept.db, 'test', 'all', thresholds, { current: '', next: 's1' });
    await updateFusion(fresh.db, 'test', 'all', thresholds);
    kept.edit();
    fresh.edit();
    return { kept, fresh };
  }

  it('merges a changed note exactly as reading every node afresh does', async () => {
    const { kept, fresh } = await fusedThenEdited();
    await updateFusion(kept.db, 'test', new Set([7]), thresholds, { current: 's1', next: 's2' });
    await updateFusion(fresh.db, 'test', new Set([7]), thresholds);
    const merged = kept.groups();
    expect(merged.some((g) => (g as { node_id: number }).node_id >= 5000)).toBe(true);
    expect(merged).toEqual(fresh.groups());
    kept.db.close();
    fresh.db.close();
  });

  it('reads every node again when the index carries another stamp than the kept nodes', async () => {
    // Another writer changed note 7 and ran its own graph step: the kept nodes are stale.
    const { kept, fresh } = await fusedThenEdited();
    expect(fusionNodes(kept.db, 'test', 's1').fromCache).toBe(true);
    expect(fusionNodes(kept.db, 'test', 'written-elsewhere').fromCache).toBe(false);
    await updateFusion(kept.db, 'test', new Set([7]), thresholds, { current: 'written-elsewhere', next: 's2' });
    await updateFusion(fresh.db, 'test', new Set([7]), thresholds);
    expect(kept.groups()).toEqual(fresh.groups());
    // Read afresh, the nodes hold note 7's new rows and not its deleted ones.
    const facts = fusionNodes(kept.db, 'test', 's2').nodes.fact;
    const ids = new Set(facts.ids.subarray(0, facts.size));
    expect(ids.has(5001) && ids.has(5002)).toBe(true);
    expect(ids.has(at(entries, 19).id)).toBe(false);
    kept.db.close();
    fresh.db.close();
  });
});

describe('updateDocEdges', () => {
  it('gives the same edges incrementally as a full rebuild', async () => {
    const db = openDb(':memory:');
    const entries = clustered(60, 16, 3);
    const insertDoc = db.prepare("INSERT INTO documents (id, root, rel_path, status) VALUES (?, 'r', ?, 'indexed')");
    for (const e of entries) insertDoc.run(e.id, `${e.id}.md`);
    const all = new VectorMatrix(16, entries);
    await updateDocEdges(db, new VectorMatrix(16, entries.slice(0, 50)), 'all');
    // Ten documents arrive, and one existing one moves to another cluster.
    const moved = { id: 5, vector: at(entries, 1).vector };
    const next = [...entries.slice(0, 50).map((e) => (e.id === 5 ? moved : e)), ...entries.slice(50)];
    const changed = new Set([5, ...entries.slice(50).map((e) => e.id)]);
    await updateDocEdges(db, new VectorMatrix(16, next), changed);
    const incremental = db.prepare('SELECT src, dst FROM doc_edges ORDER BY src, dst').all();
    db.prepare('DELETE FROM doc_edges').run();
    await updateDocEdges(db, new VectorMatrix(16, next), 'all');
    expect(db.prepare('SELECT src, dst FROM doc_edges ORDER BY src, dst').all()).toEqual(incremental);
    expect(all.size).toBe(60);
    db.close();
  });

  it('above the exact limit, finds nearly all of the exact neighbours from LSH buckets', async () => {
    const db = openDb(':memory:');
    // Many loose clusters and no ties, like document vectors.
    let s = 40;
    const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const centres = Array.from({ length: 30 }, () => Float32Array.from({ length: 16 }, rand));
    const entries = Array.from({ length: 1500 }, (_, i) => ({ id: i + 1, vector: normalize(Float32Array.from(at(centres, i % 30), (x) => x + rand() * 0.5)) }));
    const insertDoc = db.prepare("INSERT INTO documents (id, root, rel_path, status) VALUES (?, 'r', ?, 'indexed')");
    for (const e of entries) insertDoc.run(e.id, `${e.id}.md`);
    const m = new VectorMatrix(16, entries);
    await updateDocEdges(db, m, 'all', 3);
    const edges = () => new Set((db.prepare('SELECT src, dst FROM doc_edges').all() as { src: number; dst: number }[]).map((r) => `${r.src}>${r.dst}`));
    const exact = edges();
    db.prepare('DELETE FROM doc_edges').run();
    await updateDocEdges(db, m, 'all', 3, 500);
    const approx = edges();
    expect(exact.size).toBe(1500 * 3);
    expect(approx.size).toBe(1500 * 3);
    const found = [...exact].filter((e) => approx.has(e)).length;
    expect(found / exact.size).toBeGreaterThan(0.9);
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
    expect(at(fused, 0).score).toBeCloseTo(1 / 61 + 1 / 62, 6);
  });
});

describe("a changed note's fusion nodes", () => {
  it('are read through the document index, not by walking every mind-map vector', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openTracedDb, explain } = await import('../../main/engine/store/query-plans.js');
    const { loadFusionVectors } = await import('../../main/engine/store/super-nodes.js');
    const dir = mkdtempSync(join(tmpdir(), 'loci-fusion-plan-'));
    const traced = openTracedDb(join(dir, 'i.db'));
    try {
      const entries = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, vector: normalize(Float32Array.from([1, i, 0.5])) }));
      writeTopicNotes(traced.db, entries, 2);
      expect(loadFusionVectors(traced.db, 'test', [2]).map((r) => r[0])).toEqual([4, 5, 6]);
      const sql = traced.statements().find((s) => s.includes('json_each') && s.includes('mm_nodes n'));
      // The first step seeks the notes' nodes; the vectors follow by key.
      expect(explain(traced.db, must(sql))[0]).toMatch(/^SEARCH n USING INDEX mm_nodes_doc/);
    } finally {
      traced.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
