import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildCsr, personalizedPageRank, pushPageRank } from '../../main/engine/graph/walk/pagerank.js';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { IndexCache } from '../../main/engine/retrieve/index-cache.js';
import type { RetrievalContext } from '../../main/engine/retrieve/retriever.js';
import { createPprRetriever, entityGraph, type PprExplanation } from '../../main/engine/retrieve/ppr.js';
import { retrieve } from '../../main/engine/retrieve/index.js';

// A path 0 – 1 – 2 with weights 1 and 3, node 3 isolated, the walk restarting at node 0 with
// probability 1 − d = 0.5. By hand (p = 0.5·r + 0.5·Wᵀp, W row-normalised):
//   p0 = 0.5 + 0.5·(1/4)·p1,  p1 = 0.5·(p0 + p2),  p2 = 0.5·(3/4)·p1
//   ⇒ p2 = 3/8·p1, p1 = 8/13·p0, p0 = 13/24, p1 = 1/3, p2 = 1/8, p3 = 0.
const HAND = [13 / 24, 1 / 3, 1 / 8, 0];
const graph = () => buildCsr(4, [0, 1], [1, 2], [1, 3]);

describe('personalized PageRank', () => {
  it('the CSR is symmetric, sums duplicate edges and drops self loops', () => {
    const g = buildCsr(3, [0, 1, 0, 2], [1, 0, 2, 2], [1, 2, 0.5, 9]);
    expect(Array.from(g.ptr)).toEqual([0, 3, 5, 6]);
    expect(Array.from(g.strength)).toEqual([3.5, 3, 0.5]);
  });

  it('power iteration matches the hand-computed solution on a small weighted graph', () => {
    const reset = Float32Array.from([1, 0, 0, 0]);
    const p = personalizedPageRank(graph(), reset, { damping: 0.5, iterations: 40 });
    HAND.forEach((x, i) => expect(p[i]).toBeCloseTo(x, 5));
  });

  it('local push converges to the same solution, touching only the seed’s component', () => {
    const { p, touched } = pushPageRank(graph(), Float32Array.from([2, 0, 0, 0]), 0.5, 1e-7);
    HAND.forEach((x, i) => expect(p[i]).toBeCloseTo(x, 4));
    expect([...touched].sort()).toEqual([0, 1, 2]);
  });

  it('a reset with no mass gives no ranking', () => {
    expect(Array.from(personalizedPageRank(graph(), new Float32Array(4)))).toEqual([0, 0, 0, 0]);
    expect(pushPageRank(graph(), new Float32Array(4), 0.5, 1e-6).touched.length).toBe(0);
  });
});

describe('ppr over the entity–chunk–note graph of the sample notes', () => {
  let db: Db;
  let ctx: RetrievalContext;
  beforeAll(async () => {
    db = openDb(':memory:');
    const embedder = await createStaticEmbedder();
    await indexFolder(db, embedder, join(import.meta.dirname, '../../resources/sample-notes'));
    ctx = { db, embedder, cache: new IndexCache(db, embedder) };
  }, 60_000);
  afterAll(() => db?.close());

  it('has a node per chunk, note and entity, built once per index generation', async () => {
    const g = entityGraph(ctx);
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    expect(g.chunks).toBe(count("SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.status = 'indexed'"));
    expect(g.notes).toBe(count("SELECT count(*) FROM documents WHERE status = 'indexed'"));
    expect(g.csr.n).toBe(g.chunks + g.notes + count('SELECT count(*) FROM entities'));
    expect(entityGraph(ctx)).toBe(g);
  });

  it('carries the second hop: the founder’s note ranks with the roaster’s for a question naming only the roaster', async () => {
    const { contexts, explanation } = await createPprRetriever()(ctx, 'Where was the founder of Kestrel Coffee Works born?', 5);
    const x = explanation as PprExplanation;
    expect(x.seedNames.map((n) => n.name)).toContain('kestrel coffee work');
    const titles = contexts.map((c) => c.docTitle);
    expect(titles.slice(0, 3)).toContain('Mara Lindqvist');
    expect(titles.slice(0, 3)).toContain('Kestrel Coffee Works');
    for (let i = 1; i < contexts.length; i++) expect(contexts[i - 1]!.score).toBeGreaterThanOrEqual(contexts[i]!.score);
  });

  it('is selectable as a method and used by loci', async () => {
    const r = await retrieve(ctx, 'Where was the founder of Kestrel Coffee Works born?', 'ppr', 3);
    expect(r.contexts.length).toBe(3);
    const loci = await retrieve(ctx, 'Where was the founder of Kestrel Coffee Works born?', 'loci', 5);
    const ranks = (loci.explanation as { documents: { title: string; ranks: { ppr?: number } }[] }).documents;
    expect(ranks.some((d) => d.ranks.ppr !== undefined)).toBe(true);
  });
});
