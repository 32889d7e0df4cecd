// loci's stages on hand-made inputs: how first-stage rankings add up, which chunk shows a note, and how
// the bridges lend a parent's score (split over what it names, the best parent only, anchors by weight).
import { describe, expect, it } from 'vitest';
import { LociDocuments } from '../../main/engine/retrieve/loci/documents.js';
import { fuseFirstStage } from '../../main/engine/retrieve/loci/fusion.js';
import { addBridges } from '../../main/engine/retrieve/loci/bridges.js';
import { creditNamedTitles } from '../../main/engine/retrieve/loci/title-in-question.js';
import { DEFAULT_LOCI_PARAMS, type LociParams } from '../../main/engine/retrieve/loci-params.js';
import type { TitleMentions } from '../../main/engine/graph/walk/title-mentions.js';
import type { QueryAnalysis } from '../../main/engine/retrieve/query.js';

const titles = new Map([
  [1, 'Alpha'],
  [2, 'Beta'],
  [3, 'Gamma'],
  [4, 'Delta'],
]);
const rrf = (rank: number) => 1 / (10 + rank + 1);
const none = { lexical: [], ownOrder: [], ownShare: 0, dense: [], byTitle: [], walk: [] };
const weights = { bm25: 2, bigramShare: 0, dense: 1, title: 0.5, ppr: 1 };

/** Every title mentioned by exactly one note of many: specificity near 1, so bonuses are easy to read. */
function mentionsOf(byDoc: Record<number, number[]>, notes = 1000): TitleMentions {
  const byTitle = new Map([...titles].map(([id, t]) => [t.toLowerCase(), [id]]));
  const noteFrequency = new Map([...titles.values()].map((t) => [t.toLowerCase(), 1]));
  const links = new Map(Object.entries(byDoc).map(([d, ts]) => [Number(d), ts.map((t) => ({ docId: t, key: titles.get(t)!.toLowerCase() }))]));
  return { byTitle, byDoc: links, noteFrequency, notes } as unknown as TitleMentions;
}

describe('first-stage fusion', () => {
  it('adds each ranking its weight × reciprocal rank, and records each rank', () => {
    const docs = new LociDocuments(titles);
    fuseFirstStage(docs, { ...none, lexical: [{ docId: 1, chunkId: 10 }, { docId: 2, chunkId: 20 }], dense: [{ docId: 2, chunkId: 21 }], walk: [{ docId: 3, chunkId: 30, score: 1 }] }, weights, rrf);
    expect(docs.entry(1).score).toBeCloseTo(2 * rrf(0));
    expect(docs.entry(2).score).toBeCloseTo(2 * rrf(1) + 1 * rrf(0));
    expect(docs.entry(2).ranks).toEqual({ bm25: 2, dense: 1 });
    expect(docs.entry(3).ranks).toEqual({ ppr: 1 });
  });

  it('shows a note by its BM25 chunk, else its dense chunk, else the walk\'s', () => {
    const docs = new LociDocuments(titles);
    const shown = fuseFirstStage(docs, { ...none, lexical: [{ docId: 1, chunkId: 10 }], dense: [{ docId: 1, chunkId: 11 }, { docId: 2, chunkId: 21 }], walk: [{ docId: 2, chunkId: 22, score: 1 }, { docId: 3, chunkId: 30, score: 1 }] }, weights, rrf);
    expect([...shown]).toEqual([[1, 10], [2, 21], [3, 30]]);
  });

  it('splits BM25\'s weight between the chosen-passage order and BM25\'s own by ownShare', () => {
    const docs = new LociDocuments(titles);
    fuseFirstStage(docs, { ...none, lexical: [{ docId: 1, chunkId: 10 }, { docId: 2, chunkId: 20 }], ownOrder: [{ docId: 2, chunkId: 20 }, { docId: 1, chunkId: 10 }], ownShare: 0.25 }, weights, rrf);
    expect(docs.entry(1).score).toBeCloseTo(2 * 0.75 * rrf(0) + 2 * 0.25 * rrf(1));
  });

  it('ranks by score, ties by id', () => {
    const docs = new LociDocuments(titles);
    docs.entry(3).score = 1;
    docs.entry(2).score = 1;
    docs.entry(1).score = 2;
    expect(docs.ranked(2).map((d) => d.docId)).toEqual([1, 2]);
  });
});

describe('bridges', () => {
  const p: LociParams = { ...DEFAULT_LOCI_PARAMS, wBridge: 0.5, bridgeParents: 2, bridgeSplitPower: 0.5, specificityPower: 0 };

  it('lend a parent\'s score, split by √(notes it names), keeping the best parent\'s only', () => {
    const docs = new LociDocuments(titles);
    docs.entry(1).score = 1;
    docs.entry(2).score = 0.8;
    addBridges(docs, mentionsOf({ 1: [3, 4], 2: [3] }), p, 0);
    // Gamma: from Alpha 0.5·1/√2 ≈ 0.354, from Beta 0.5·0.8 = 0.4 — the larger, not the sum.
    expect(docs.entry(3).score).toBeCloseTo(0.4);
    expect(docs.entry(4).score).toBeCloseTo(0.5 / Math.SQRT2);
    expect(docs.entry(3).bridgedFrom.map((b) => b.title)).toEqual(['Alpha', 'Beta']);
  });

  it('lend from only the top parents, unless the question names the parent (at the anchor weight)', () => {
    const docs = new LociDocuments(titles);
    docs.entry(1).score = 1;
    docs.entry(2).score = 0.8;
    const named = docs.entry(4);
    named.score = 0.1;
    named.titleInQuestion = true;
    addBridges(docs, mentionsOf({ 4: [3] }), { ...p, bridgeParents: 1 }, 2);
    expect(docs.entry(3).score).toBeCloseTo(2 * 0.1);
    addBridges(docs, mentionsOf({ 4: [1] }), { ...p, bridgeParents: 1 }, 0);
    expect(docs.entry(1).score).toBe(1);
  });
});

describe('a title the question names', () => {
  it('gains wTitleExact × rank-one score once, and only where it is a whole title', () => {
    const docs = new LociDocuments(titles);
    const qa = { words: ['where', 'is', 'gamma', 'gamma', 'ray'] } as QueryAnalysis;
    creditNamedTitles(docs, qa, mentionsOf({}), { ...DEFAULT_LOCI_PARAMS, wTitleExact: 2, specificityPower: 0 }, rrf(0));
    expect(docs.entry(3).titleInQuestion).toBe(true);
    expect(docs.entry(3).score).toBeCloseTo(2 * rrf(0));
    expect(docs.byId.size).toBe(1);
  });
});
