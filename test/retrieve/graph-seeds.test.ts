import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { indexTexts } from '../../main/engine/index/run.js';
import { IndexCache } from '../../main/engine/retrieve/index-cache.js';
import type { RetrievalContext } from '../../main/engine/retrieve/retriever.js';
import { analyseQuery } from '../../main/engine/retrieve/query.js';
import { denseAgreementWeight, firstStageNotes, fusedDocuments, MIN_DENSE_WEIGHT } from '../../main/engine/retrieve/rank-fusion.js';
import { embedderQuality } from '../../main/engine/retrieve/embedder-quality.js';
import { FULL_GRAPH_AGREEMENT, graphAgreementWeight, graphSeededDocuments, SEED_DEPTH, withLexicalFirst } from '../../main/engine/retrieve/graph-seeds.js';
import { RRF_K } from '../../main/engine/retrieve/hybrid.js';
import { higRetriever } from '../../main/engine/retrieve/hig/retriever.js';
import { pgrRetriever } from '../../main/engine/retrieve/pgr/retriever.js';
import { rankedDocuments } from '../../main/bench/metrics.js';

// Notes written for this test: a container-setup cluster (Docker, configuration, users), a query-language
// cluster and two unrelated notes, so the document graph has neighbourhoods that exclude some notes.
const NOTES = [
  {
    relPath: 'docker.md',
    title: 'Docker',
    content:
      '# Docker\n\nRun the server in a container with docker run.\nMount your space folder as a volume.\n\n## Ownership\n\nSet the PUID and PGID environment variables to run the container as a particular user and group id.\n\n## Upgrades\n\nPull the newest image and restart the container to upgrade the server.\nYour space and its users stay as they were.\n',
  },
  { relPath: 'configuration.md', title: 'Configuration', content: '# Configuration\n\nThe server reads environment variables at start.\nSB_USER sets a single user name and password for the server.\nSB_PORT sets the port the server listens on.\n' },
  { relPath: 'users.md', title: 'Users', content: '# Users\n\nAn admin user manages the other user accounts of the server.\nEach user has a password and a group.\n' },
  { relPath: 'query.md', title: 'Query language', content: '# Query language\n\nA query selects objects with a where clause and orders them.\nThe group by clause groups rows and aggregate functions count them.\n' },
  { relPath: 'aggregates.md', title: 'Aggregates', content: '# Aggregates\n\nAggregate functions such as count, sum and max work on grouped rows.\nA having clause filters the groups.\n' },
  { relPath: 'tea.md', title: 'Green tea', content: '# Green tea\n\nGreen tea is made from unoxidised leaves.\nIt is popular in China and Japan.\n' },
  { relPath: 'river.md', title: 'Thames', content: '# Thames\n\nThe River Thames flows through London to the North Sea.\nIts tidal reach ends at Teddington Lock.\n' },
];

let db: Db;
let ctx: RetrievalContext;
const docId = (title: string) => (db.prepare('SELECT id FROM documents WHERE title = ?').get(title) as { id: number }).id;
const neighbours = (id: number) =>
  new Set((db.prepare('SELECT dst AS n FROM doc_edges WHERE src = ? UNION SELECT src AS n FROM doc_edges WHERE dst = ?').all(id, id) as { n: number }[]).map((r) => r.n));
const allIds = () => (db.prepare('SELECT id FROM documents ORDER BY id').all() as { id: number }[]).map((r) => r.id);

beforeAll(async () => {
  db = openDb(':memory:');
  const embedder = await createStaticEmbedder();
  await indexTexts(db, embedder, 'test:', NOTES);
  ctx = { db, embedder, cache: new IndexCache(db, embedder) };
});
afterAll(() => db.close());

describe('graph agreement of the seed fusion', () => {
  it('counts dense fully when its notes are neighbours of BM25’s on the document graph, and little when they lie outside', () => {
    // Aggregates' neighbourhood is the query cluster and the closest setup notes, not tea or the river.
    const agg = docId('Aggregates');
    const near = neighbours(agg);
    const outside = allIds().filter((id) => id !== agg && !near.has(id));
    expect(near.size).toBeGreaterThan(0);
    expect(outside.length).toBeGreaterThan(0);
    // Exact overlap alone sees no agreement here: the two rankings share no note.
    expect(denseAgreementWeight([agg], [[...near][0]!])).toBe(MIN_DENSE_WEIGHT);
    expect(graphAgreementWeight(ctx, [agg], [[...near][0]!])).toBe(1);
    expect(graphAgreementWeight(ctx, [agg], [outside[0]!])).toBe(MIN_DENSE_WEIGHT);
    // Half the dense notes inside: chance-corrected agreement between the two.
    const half = graphAgreementWeight(ctx, [agg], [[...near][0]!, outside[0]!]);
    const chance = (near.size + 1) / allIds().length;
    expect(half).toBeCloseTo(Math.max(MIN_DENSE_WEIGHT, Math.min(1, (0.5 - chance) / (1 - chance) / FULL_GRAPH_AGREEMENT)), 6);
  });

  it('falls back to the plain overlap when BM25’s neighbourhood is the whole corpus', () => {
    const ids = allIds();
    const lexical = ids.slice(0, 4);
    const dense = [ids[5]!, ids[6]!, ids[0]!];
    const everyone = graphAgreementWeight(ctx, ids, dense);
    expect(everyone).toBe(denseAgreementWeight(ids, dense));
    expect(graphAgreementWeight(ctx, lexical, dense)).toBeGreaterThanOrEqual(MIN_DENSE_WEIGHT);
  });

  it('seeds are the passage-grain fusion at hybrid’s depth with that weight, led by BM25’s first note while the embedder is not trusted', async () => {
    const qa = await analyseQuery(ctx, 'How can I make the container run as a particular user and group id?');
    const { documents, denseWeight } = await graphSeededDocuments(ctx, qa);
    expect(denseWeight).toBeGreaterThanOrEqual(MIN_DENSE_WEIGHT);
    // The built-in GloVe is trusted 0 (embedder-quality.ts); with a trusted model the seeds are the plain
    // fusion (embedder-quality.test.ts).
    expect((await embedderQuality(ctx)).weight).toBe(0);
    const lexicalFirst = firstStageNotes(ctx, qa, SEED_DEPTH).lexical[0]!.docId;
    expect(documents).toEqual(withLexicalFirst(fusedDocuments(ctx, qa, SEED_DEPTH, RRF_K, denseWeight), lexicalFirst));
    expect(documents[0]!.docId).toBe(docId('Docker'));
  });

  it('moves BM25’s first note to the front and keeps the others in order', () => {
    const doc = (docId: number) => ({ docId, chunkId: docId * 10, score: 1 / docId });
    const fused = [doc(1), doc(2), doc(3), doc(4)];
    expect(withLexicalFirst(fused, 3).map((d) => d.docId)).toEqual([3, 1, 2, 4]);
    expect(withLexicalFirst(fused, 1)).toBe(fused);
    // A note the fusion does not hold, or no BM25 note at all: nothing moves.
    expect(withLexicalFirst(fused, 9)).toBe(fused);
    expect(withLexicalFirst(fused, undefined)).toBe(fused);
  });
});

describe('hig and pgr keep the seed fusion’s notes', () => {
  const questions = [
    'How can I make the container run as a particular user and group id?',
    'Which clause filters the groups of an aggregate query?',
    'Where does the River Thames flow?',
    'What sets the port the server listens on?',
    'Which variables set the PUID and PGID?',
    'How do I upgrade?',
  ];

  it('hig’s first N notes are the fusion’s first N, in order, each shown by the passage the fusion found it by; graph neighbours only follow', async () => {
    for (const question of questions) {
      const fused = (await graphSeededDocuments(ctx, await analyseQuery(ctx, question))).documents;
      const seeds = fused.map((d) => d.docId);
      const { contexts } = await higRetriever(ctx, question, 5);
      const notes = rankedDocuments(contexts.map((c) => c.docId));
      expect(notes.slice(0, 5)).toEqual(seeds.slice(0, 5));
      for (const c of contexts.filter((x) => x.kind === 'chunk').slice(0, 5)) expect(c.chunkId).toBe(fused.find((d) => d.docId === c.docId)!.chunkId);
    }
  });

  it('pgr returns the fusion’s first note among its first two, and every note it returns is a seed or a walked topic’s', async () => {
    for (const question of questions) {
      const seeds = (await graphSeededDocuments(ctx, await analyseQuery(ctx, question))).documents.map((d) => d.docId);
      const { contexts } = await pgrRetriever(ctx, question, 10);
      const notes = rankedDocuments(contexts.map((c) => c.docId));
      expect(notes.slice(0, 2)).toContain(seeds[0]);
      for (const c of contexts) expect(c.kind).toBe('fact-path');
    }
  });
});
