import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { dot, type Embedder } from '../../main/engine/embed/embedder.js';
import { indexTexts } from '../../main/engine/index/run.js';
import { IndexCache } from '../../main/engine/retrieve/index-cache.js';
import type { RetrievalContext } from '../../main/engine/retrieve/retriever.js';
import { createHigRetriever, type HigExplanation } from '../../main/engine/retrieve/hig/retriever.js';
import { graphSeededDocuments } from '../../main/engine/retrieve/graph-seeds.js';
import { analyseQuery } from '../../main/engine/retrieve/query.js';
import { extractiveAnswer } from '../../main/engine/answer/extractive.js';
import { createPgrRetriever, type PgrExplanation, type PgrMindMapNode } from '../../main/engine/retrieve/pgr/retriever.js';
import { formatLociExplanation, lociRetriever, type LociExplanation } from '../../main/engine/retrieve/loci/retriever.js';
import { formatHigExplanation } from '../../main/engine/retrieve/hig/explain.js';
import { formatPgrExplanation } from '../../main/engine/retrieve/pgr/explain.js';
import { loadEmbedding } from '../../main/engine/store/embeddings.js';

// A small corpus written for this test: a two-hop chain Ada Lovelace → Charles Babbage → London, and two
// notes on the same topic under near-identical titles so fusion makes a super-topic of them.
const NOTES = [
  { relPath: 'ada.md', title: 'Ada Lovelace', content: '# Ada Lovelace\n\nAda Lovelace was an English mathematician.\nShe worked with Charles Babbage on the Analytical Engine.\n\n## Legacy\n\nShe wrote the first published algorithm for a machine.\n' },
  { relPath: 'babbage.md', title: 'Charles Babbage', content: '# Charles Babbage\n\nCharles Babbage was an English polymath born in London.\nHe designed the Difference Engine and the Analytical Engine.\n' },
  { relPath: 'engine.md', title: 'Analytical Engine', content: '# Analytical Engine\n\nThe Analytical Engine was a proposed mechanical general-purpose computer.\nIt was designed in 1837 and never completed.\n' },
  { relPath: 'engine-2.md', title: 'The Analytical Engine', content: '# The Analytical Engine\n\nIts store could hold one thousand numbers of fifty digits.\n' },
  { relPath: 'london.md', title: 'London', content: '# London\n\nLondon is the capital city of England.\nThe River Thames flows through London.\n' },
  { relPath: 'tea.md', title: 'Green tea', content: '# Green tea\n\nGreen tea is made from unoxidised leaves.\nIt is popular in China and Japan.\n' },
];

let db: Db;
let embedder: Embedder;
let ctx: RetrievalContext;

beforeAll(async () => {
  db = openDb(':memory:');
  embedder = await createStaticEmbedder();
  await indexTexts(db, embedder, 'test:', NOTES);
  ctx = { db, embedder, cache: new IndexCache(db, embedder) };
});
afterAll(() => db.close());

const docId = (title: string) => (db.prepare('SELECT id FROM documents WHERE title = ?').get(title) as { id: number }).id;
const edge = (a: number, b: number) =>
  (db.prepare('SELECT weight FROM doc_edges WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?)').get(a, b, b, a) as { weight: number } | undefined)?.weight;

describe('hig explanation', () => {
  const question = 'Who worked with Ada Lovelace on the Analytical Engine?';

  it('lists the top-N documents of the BM25+dense fusion (w = 1, ahead of all neighbours), attentive neighbours weighted by document cosine, and entities above λ', async () => {
    const { contexts, explanation } = await createHigRetriever({ topN: 2, strategy: 'attentive' })(ctx, question, 10);
    const x = explanation as HigExplanation;
    const q = (await embedder.embed([question]))[0]!;
    const seeds = x.documents.filter((d) => d.hops === 0);
    expect(seeds).toHaveLength(2);
    for (const d of x.documents) {
      expect(d.similarity).toBeCloseTo(dot(loadEmbedding(db, 'doc', embedder.id, d.docId)!, q), 5);
      if (d.hops === 0) expect(d.weight).toBe(1);
      else expect(d.weight).toBeCloseTo(edge(d.docId, d.via!)!, 6);
      // Changed with issue 12: seeds come from the fusion and lead in its order; neighbours score w·cos.
      if (d.hops === 0) expect(d.score).toBeGreaterThan(1);
      else expect(d.score).toBeCloseTo(d.weight * d.similarity, 6);
    }
    expect(x.documents.slice(0, 2).every((d) => d.hops === 0)).toBe(true);
    // The seeds are the graph-weighted fusion's first notes, in its order.
    const { documents: fused, denseWeight } = await graphSeededDocuments(ctx, await analyseQuery(ctx, question));
    expect(seeds.map((d) => d.docId)).toEqual(fused.slice(0, 2).map((d) => d.docId));
    expect(x.denseWeight).toBe(denseWeight);
    expect(x.documents.some((d) => d.hops === 1)).toBe(true);
    expect(x.entities.length).toBeGreaterThan(0);
    for (const e of x.entities) {
      expect(e.score).toBeGreaterThan(0.1);
      expect(e.score).toBeCloseTo(e.weight * e.similarity, 6);
    }
    expect(x.entities.map((e) => e.name)).toContain('Ada Lovelace');
    const text = formatHigExplanation(x);
    expect(text).toMatch(/^hig \(attentive; N=2, K=3, λ=0\.1, T=20\)/);
    for (const d of x.documents) expect(text).toContain(`${d.title}  sim ${d.similarity.toFixed(3)} · w ${d.weight.toFixed(3)}`);
    expect(text).toMatch(/1-hop neighbour of “/);
    expect(text).toContain(`Ada Lovelace  w 1.000 · cos`);
    // Triple contexts carry the triple's note and line range.
    const triples = contexts.filter((c) => c.kind === 'triple');
    expect(triples.length).toBe(x.triples.length);
    for (const t of triples) {
      const row = db.prepare('SELECT line_from, line_to FROM triples WHERE document_id = ? AND line_from = ?').get(t.docId, t.lineFrom);
      expect(row).toBeTruthy();
    }
  });

  it('one-hop gives every neighbour weight 1; multi-hop multiplies the weights of two hops', async () => {
    const one = (await createHigRetriever({ topN: 1, strategy: 'one-hop' })(ctx, question, 10)).explanation as HigExplanation;
    expect(one.documents.filter((d) => d.hops === 1).every((d) => d.weight === 1)).toBe(true);
    // From the tea note (on the edge of this corpus) the second hop reaches notes the first does not.
    const multi = (await createHigRetriever({ topN: 1, neighbours: 3, strategy: 'multi-hop' })(ctx, 'Where is green tea popular?', 10)).explanation as HigExplanation;
    expect(multi.documents[0]!.title).toBe('Green tea');
    const second = multi.documents.filter((d) => d.hops === 2);
    expect(second.length).toBeGreaterThan(0);
    const seed = multi.documents[0]!.docId;
    const all = (db.prepare('SELECT id FROM documents').all() as { id: number }[]).map((r) => r.id);
    for (const d of second) {
      // Some document h links the seed to d: w = w(seed, h) · w(h, d), the best such product.
      const products = all.map((h) => (edge(seed, h) ?? 0) * (edge(h, d.docId) ?? 0));
      expect(products.some((p) => Math.abs(p - d.weight) < 1e-6)).toBe(true);
      expect(d.weight).toBeGreaterThan(edge(seed, d.docId) ?? -Infinity);
    }
  });
});

describe('pgr explanation', () => {
  it('shows key points, seed topics from the BM25+dense fusion, seed fact paths, scores and the nested mind map of the chosen paths', async () => {
    const question = 'What did Ada Lovelace write?';
    const { contexts, explanation } = await createPgrRetriever()(ctx, question, 4);
    const x = explanation as PgrExplanation;
    expect(x.keyPoints[0]).toBe(question);
    expect(x.keyPoints).toContain('Ada Lovelace');
    expect(x.seedTopics[0]!.text).toBe('Ada Lovelace');
    // Seed topics are those of the five notes the fusion ranks first, in its order (one topic per note here).
    const fused = (await graphSeededDocuments(ctx, await analyseQuery(ctx, question))).documents.map((d) => d.docId);
    expect(x.seedTopics.map((t) => t.docId)).toEqual(fused.slice(0, 5));
    // Walked topics are added to the seeds (the paper's union), at most three.
    expect(x.walkedTopics.length).toBeLessThanOrEqual(3);
    expect(x.walkedTopics.every((t) => !x.seedTopics.some((s) => s.id === t.id))).toBe(true);
    const candidateTopics = new Set([...x.seedTopics, ...x.walkedTopics].map((t) => t.text));
    for (const s of x.seedFactPaths) {
      expect(candidateTopics.has(s.pathText.split(' › ')[0]!)).toBe(true);
      expect(x.keyPoints).toContain(s.keyPoint);
    }
    expect(contexts.length).toBeGreaterThan(0);
    expect(contexts.every((c) => c.kind === 'fact-path')).toBe(true);
    expect(contexts.map((c) => c.factPath)).toEqual(x.factPaths.map((f) => f.pathText));
    // Two paths per note first, best first; then the rest (so the K paths span notes).
    const notes = contexts.map((c) => c.docId);
    const firstPass = notes.findIndex((d, i) => notes.slice(0, i).filter((x) => x === d).length >= 2);
    const head = firstPass === -1 ? x.factPaths : x.factPaths.slice(0, firstPass);
    for (let i = 1; i < head.length; i++) expect(head[i - 1]!.score).toBeGreaterThanOrEqual(head[i]!.score);
    // Every context is a fact path of its note and its source: the passage the fact was extracted from,
    // with the passage's line range (the text shown), one context per passage.
    for (const c of contexts) {
      const node = db.prepare("SELECT line_from, line_to, text, fci_id FROM mm_nodes WHERE path_text = ? AND kind = 'fact'").get(c.factPath) as { line_from: number; line_to: number; text: string; fci_id: number };
      const chunk = db.prepare('SELECT c.id, c.text, c.document_id, c.line_from, c.line_to FROM chunks c JOIN fcis f ON f.chunk_id = c.id WHERE f.id = ?').get(node.fci_id) as { id: number; text: string; document_id: number; line_from: number; line_to: number };
      expect([c.lineFrom, c.lineTo]).toEqual([chunk.line_from, chunk.line_to]);
      expect(c.lineFrom).toBeLessThanOrEqual(node.line_from);
      expect(c.lineTo).toBeGreaterThanOrEqual(node.line_to);
      expect(c.chunkId).toBe(chunk.id);
      expect(c.text).toBe(chunk.text);
      expect(c.docId).toBe(chunk.document_id);
    }
    expect(new Set(contexts.map((c) => c.chunkId)).size).toBe(contexts.length);
    // The extractive answer cites pgr's facts as facts, not as their passages.
    const answer = await extractiveAnswer(ctx, question, contexts);
    const factTexts = new Set((db.prepare('SELECT text FROM fcis').all() as { text: string }[]).map((r) => r.text));
    expect(answer.citations.length).toBeGreaterThan(0);
    for (const cite of answer.citations) expect(factTexts.has(cite.text)).toBe(true);
    // ...with the fact's own lines, not the passage's.
    for (const cite of answer.citations) {
      const fci = db.prepare('SELECT line_from, line_to FROM fcis WHERE text = ? AND document_id = ?').get(cite.text, cite.docId) as { line_from: number; line_to: number };
      expect([cite.lineFrom, cite.lineTo]).toEqual([fci.line_from, fci.line_to]);
    }
    // The nested mind map holds exactly the chosen paths.
    const paths: string[] = [];
    const walk = (n: PgrMindMapNode, prefix: string[]) => {
      const path = [...prefix, n.text];
      if (n.children.length === 0) paths.push(path.join(' › '));
      n.children.forEach((c) => walk(c, path));
    };
    x.mindMap.forEach((root) => {
      expect(root.kind).toBe('topic');
      walk(root, []);
    });
    expect(paths.sort()).toEqual(x.factPaths.map((f) => f.pathText).sort());
    const text = formatPgrExplanation(x);
    expect(text).toContain('  - Ada Lovelace');
    expect(text).toContain(`Seed topics (BM25+dense fusion, dense weight ${x.denseWeight.toFixed(3)}):\n  Ada Lovelace  sim ${x.seedTopics[0]!.similarity.toFixed(3)}`);
    for (const p of x.factPaths) expect(text).toContain(`${p.score.toFixed(3)}  ${p.pathText}`);
    expect(text).toMatch(/Mind map:\n {2}▸ Ada Lovelace/);
  });

  it('walks from a seed topic through its super-topic, and uses the key points it is given', async () => {
    const supers = db.prepare("SELECT count(*) AS n FROM super_nodes WHERE kind = 'topic'").get() as { n: number };
    expect(supers.n).toBeGreaterThan(0);
    const retriever = createPgrRetriever({ seedNotes: 1, fillBySimilarity: false });
    const keyPoints = ['Analytical Engine design', 'store of numbers'];
    const { explanation } = await retriever({ ...ctx, keyPoints }, 'How many numbers could the Analytical Engine store?', 8);
    const x = explanation as PgrExplanation;
    expect(x.keyPoints).toEqual(keyPoints);
    expect(x.seedTopics).toHaveLength(1);
    const walked = x.walkedTopics.find((t) => t.via === 'super-topic');
    expect(walked).toBeTruthy();
    const pair = [x.seedTopics[0]!.text, walked!.text].sort();
    expect(pair).toEqual(['Analytical Engine', 'The Analytical Engine']);
    const member = db.prepare('SELECT 1 FROM super_members WHERE super_id = ? AND node_id = ?').get(walked!.superId, x.seedTopics[0]!.id);
    expect(member).toBeTruthy();
  });
});

describe('loci explanation', () => {
  it('shows the bridge: the note a top note mentions by title is pulled up', async () => {
    const { contexts, explanation } = await lociRetriever(ctx, 'Where was the man who worked with Ada Lovelace born?', 5);
    const x = explanation as LociExplanation;
    expect(x.documents[0]!.title).toBe('Ada Lovelace');
    expect(x.documents[0]!.titleInQuestion).toBe(true);
    const babbage = x.documents.find((d) => d.docId === docId('Charles Babbage'))!;
    expect(babbage.bridgedFrom.map((b) => b.title)).toContain('Ada Lovelace');
    expect(babbage.bridgedFrom.find((b) => b.title === 'Ada Lovelace')!.mention).toBe('charles babbage');
    // Notes in rank order (a note's further passages follow it).
    expect([...new Set(contexts.map((c) => c.docTitle))].slice(0, 2)).toEqual(['Ada Lovelace', 'Charles Babbage']);
    expect(formatLociExplanation(x)).toMatch(/Charles Babbage {2}\[.*\] {2}bridge: “Ada Lovelace” mentions “charles babbage”/);
  });

  it('says how far the embedder is trusted: the built-in bag of words gets none, so dense carries no weight', async () => {
    const x = (await lociRetriever(ctx, 'Where was the man who worked with Ada Lovelace born?', 5)).explanation as LociExplanation;
    expect(x.embedderTrust).not.toBeNull();
    expect(x.embedderTrust!.weight).toBe(0);
    expect(x.weights.dense).toBe(0);
    expect(formatLociExplanation(x)).toMatch(/embedder trusted at 0\.00 on this corpus \(word-order sensitivity 0\.00, coverage not measured/);
  });
});
