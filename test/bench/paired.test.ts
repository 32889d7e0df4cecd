import { describe, expect, it } from 'vitest';
import { compareRuns, formatInterval, pairedBootstrap, pairedDiffs, scoredSets, type ScoredSet } from '../../main/bench/paired.js';

describe('paired bootstrap', () => {
  it('a constant difference has a point interval, significant unless it is 0', () => {
    const up = pairedBootstrap(Array(50).fill(0.5));
    expect(up).toMatchObject({ n: 50, mean: 0.5, lo: 0.5, hi: 0.5, significant: true });
    const none = pairedBootstrap(Array(50).fill(0));
    expect(none).toMatchObject({ mean: 0, lo: 0, hi: 0, significant: false });
    expect(pairedBootstrap([-1])).toMatchObject({ n: 1, mean: -1, lo: -1, hi: -1, significant: true });
  });

  it('no questions: no interval, nothing significant', () => {
    const x = pairedBootstrap([]);
    expect(x.n).toBe(0);
    expect(x.mean).toBeNaN();
    expect(x.significant).toBe(false);
    expect(formatInterval(x)).toBe('–');
  });

  it('a balanced set of wins and losses is noise: the interval straddles 0 at about ±1.96 standard errors', () => {
    const diffs = [...Array(50).fill(1), ...Array(50).fill(-1)];
    const x = pairedBootstrap(diffs);
    expect(x.mean).toBe(0);
    expect(x.significant).toBe(false);
    // Standard error of the mean: 1 / √100 = 0.1.
    expect(x.lo).toBeGreaterThan(-0.24);
    expect(x.lo).toBeLessThan(-0.16);
    expect(x.hi).toBeGreaterThan(0.16);
    expect(x.hi).toBeLessThan(0.24);
  });

  it('60 wins in 100 against no change: the normal interval 0.6 ± 0.096, significant', () => {
    const x = pairedBootstrap([...Array(60).fill(1), ...Array(40).fill(0)]);
    expect(x.mean).toBeCloseTo(0.6, 12);
    expect(x.lo).toBeCloseTo(0.504, 1);
    expect(x.hi).toBeCloseTo(0.696, 1);
    expect(Math.abs(x.lo - 0.504)).toBeLessThan(0.02);
    expect(Math.abs(x.hi - 0.696)).toBeLessThan(0.02);
    expect(x.significant).toBe(true);
  });

  it('one question in a hundred changed is not significant', () => {
    const x = pairedBootstrap([1, ...Array(99).fill(0)]);
    expect(x.lo).toBe(0);
    expect(x.significant).toBe(false);
  });

  it('the seed fixes the resamples: the same seed, the same interval; another seed, another', () => {
    const diffs = Array.from({ length: 80 }, (_, i) => ((i * 37) % 11) / 10 - 0.4);
    expect(pairedBootstrap(diffs, { seed: 7 })).toEqual(pairedBootstrap(diffs, { seed: 7 }));
    expect(pairedBootstrap(diffs, { seed: 7 }).lo).not.toBe(pairedBootstrap(diffs, { seed: 8 }).lo);
  });

  it('a wider level gives a wider interval', () => {
    const diffs = Array.from({ length: 60 }, (_, i) => (i % 3) - 0.8);
    const x95 = pairedBootstrap(diffs);
    const x99 = pairedBootstrap(diffs, { level: 0.99 });
    expect(x99.lo).toBeLessThan(x95.lo);
    expect(x99.hi).toBeGreaterThan(x95.hi);
  });
});

const q = (id: string, r5: number) => ({ id, recall: { 5: r5 } });
const mean = (xs: { recall: Record<number, number> }[]) => xs.reduce((a, x) => a + x.recall[5]!, 0) / xs.length;
const method = (name: string, qs: { id: string; recall: Record<number, number> }[]) => ({ method: name, recall: { 5: mean(qs) }, perQuestion: qs });

describe('pairing a run with BM25 and with a baseline', () => {
  it('pairs questions by id, whatever their order, over the questions both answered', () => {
    const cur = new Map([['a', 1], ['b', 0.5], ['c', 0]]);
    const ref = new Map([['c', 1], ['a', 0], ['z', 1]]);
    expect(pairedDiffs(cur, ref)).toEqual([1, -1]);
  });

  it('compares each method with BM25 on the same run and with the same set, embedder and method of the baseline', () => {
    const ids = Array.from({ length: 40 }, (_, i) => `q${i}`);
    const current: ScoredSet[] = [
      {
        name: 'wiki',
        dataset: 'w.json',
        embedder: 'glove',
        results: [method('bm25', ids.map((id) => q(id, 0.5))), method('loci', ids.map((id) => q(id, 1)))],
      },
    ];
    // The baseline lists the questions in another order, and loci there lost a quarter of them.
    const baseline: ScoredSet[] = [
      {
        name: 'wiki',
        dataset: 'w.json',
        embedder: 'glove',
        results: [method('bm25', [...ids].reverse().map((id) => q(id, 0.5))), method('loci', [...ids].reverse().map((id, i) => q(id, i < 10 ? 0 : 1)))],
      },
      { name: 'wiki', dataset: 'w.json', embedder: 'minilm', results: [method('loci', ids.map((id) => q(id, 0)))] },
    ];
    const rows = compareRuns(current, baseline, 5);
    const bm25 = rows.find((r) => r.method === 'bm25')!;
    expect(bm25.vsBm25).toBeNull();
    expect(bm25.vsBaseline).toMatchObject({ n: 40, mean: 0, significant: false });
    const loci = rows.find((r) => r.method === 'loci')!;
    expect(loci.recall).toBe(1);
    expect(loci.vsBm25).toMatchObject({ n: 40, mean: 0.5, lo: 0.5, hi: 0.5, significant: true });
    // Paired with glove's baseline, not minilm's (which would make it +1).
    expect(loci.vsBaseline!.mean).toBeCloseTo(0.25, 12);
    expect(loci.vsBaseline!.significant).toBe(true);
    expect(formatInterval(loci.vsBm25)).toBe('+50.0 [+50.0, +50.0]*');
  });

  it('a set, method or cut-off the baseline lacks has no baseline column', () => {
    const set = (name: string, methods: string[]): ScoredSet => ({ name, dataset: name, embedder: 'glove', results: methods.map((m) => method(m, [q('a', 1)])) });
    const rows = compareRuns([set('new', ['bm25']), set('old', ['bm25', 'ppr'])], [set('old', ['bm25'])], 5);
    expect(rows.map((r) => [r.set, r.method, r.vsBaseline?.n ?? null])).toEqual([
      ['new', 'bm25', null],
      ['old', 'bm25', 1],
      ['old', 'ppr', null],
    ]);
    expect(compareRuns([set('old', ['bm25'])], [set('old', ['bm25'])], 10)).toEqual([]);
  });

  it('reads a report, a suite or a list of suites, and refuses anything else', () => {
    const rep = { dataset: 'd', embedder: 'glove', results: [] };
    expect(scoredSets(rep)).toHaveLength(1);
    expect(scoredSets({ suite: 'dev', reports: [rep, rep] })).toHaveLength(2);
    expect(scoredSets([{ reports: [rep] }, { reports: [rep] }])).toHaveLength(2);
    expect(() => scoredSets({ hello: 1 })).toThrow(/not a `loci bench --json` output/);
  });
});
