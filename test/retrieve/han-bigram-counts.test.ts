import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dfOf, hanBigrams, NoteBigramCounts, type BigramStats } from '../../main/engine/retrieve/zh/han-bigram-counts.js';
import { indexBigramStats } from '../../main/engine/retrieve/zh/han-bigrams.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// The bigram document frequencies are kept note by note across index changes: an edit counts again only
// the notes it rewrote, and the figures must be those a count of every chunk gives.

/**
 * The kept statistics give what counting every text afresh gives: the chunk count, the mean length and the
 * df of every key. Counted here with plain sets, not with the table the statistics are kept in.
 */
function expectSame(kept: BigramStats, texts: string[]) {
  const perText = texts.map(hanBigrams);
  expect(kept.chunks).toBe(texts.length);
  expect(kept.avgLength).toBeCloseTo(texts.length ? perText.reduce((n, keys) => n + keys.length, 0) / texts.length : 1, 9);
  const sets = perText.map((keys) => new Set(keys));
  for (const key of new Set(perText.flat())) expect([key, dfOf(kept, key)]).toEqual([key, sets.filter((s) => s.has(key)).length]);
}

describe('bigram counts kept per note', () => {
  it('counts again only the notes whose version changed, and takes out the notes gone', () => {
    const texts = new Map<number, string[]>([
      [1, ['他信落地曼谷', '曼谷机场']],
      [2, ['渔船出海捕鱼']],
      [3, ['no Han here']],
    ]);
    const asked: (number[] | 'all')[] = [];
    const textsOf = (ids: number[] | 'all') => {
      asked.push(ids);
      return [...texts].filter(([id]) => ids === 'all' || ids.includes(id)).flatMap(([docId, list]) => list.map((text) => ({ docId, text })));
    };
    const all = () => [...texts.values()].flat();
    const counts = new NoteBigramCounts();
    expectSame(counts.update(new Map([[1, 'a'], [2, 'b'], [3, 'c']]), textsOf), all());

    texts.set(2, ['渔船靠岸', '曼谷下雨']);
    expectSame(counts.update(new Map([[1, 'a'], [2, 'b2'], [3, 'c']]), textsOf), all());

    // 他信 is in note 1 alone: once it goes, no chunk holds it.
    texts.delete(1);
    const after = counts.update(new Map([[2, 'b2'], [3, 'c']]), textsOf);
    expectSame(after, all());
    expect(dfOf(after, hanBigrams('他信')[0]!)).toBe(0);

    // A note with no known version is counted again every time, never twice.
    texts.set(4, ['曼谷']);
    expectSame(counts.update(new Map<number, string | null>([[2, 'b2'], [3, 'c'], [4, null]]), textsOf), all());
    expectSame(counts.update(new Map<number, string | null>([[2, 'b2'], [3, 'c'], [4, null]]), textsOf), all());
    expect(asked).toEqual(['all', [2], [4], [4]]);
  });
});

describe('bigram counts after a failed read', () => {
  it('count the notes again whose chunks were read half-way', () => {
    const texts = [
      { docId: 1, text: '他信落地曼谷' },
      { docId: 2, text: '渔船出海捕鱼' },
    ];
    const counts = new NoteBigramCounts();
    const versions = new Map([
      [1, 'a'],
      [2, 'b'],
    ]);
    const failing = function* () {
      yield texts[0]!;
      throw new Error('disk I/O error');
    };
    expect(() => counts.update(versions, failing)).toThrow('disk I/O error');
    expectSame(
      counts.update(versions, () => texts),
      texts.map((t) => t.text),
    );
  });
});

describe('the index’s bigram statistics across edits', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-bigram-counts-', {
      'a.md': '# 泰国\n\n他信今天落地曼谷机场。\n',
      'b.md': '# 渔业\n\n渔船出海捕鱼，曼谷市场收购。\n',
    });
  }, 60_000);
  afterAll(() => notes?.close());

  const chunkTexts = () => notes!.db.prepare('SELECT text FROM chunks').pluck().all() as string[];

  it('are what counting every chunk gives, after an edit, a new note and a removed one', async () => {
    const { ctx, dir } = notes!;
    expectSame(indexBigramStats(ctx), chunkTexts());
    appendFileSync(join(dir, 'a.md'), '\n他信随后离开泰国。\n');
    await indexFolder(ctx.db, ctx.embedder, dir);
    expectSame(indexBigramStats(ctx), chunkTexts());
    writeFileSync(join(dir, 'c.md'), '# 天气\n\n曼谷明天下雨。\n');
    await indexFolder(ctx.db, ctx.embedder, dir);
    expectSame(indexBigramStats(ctx), chunkTexts());
    rmSync(join(dir, 'a.md'));
    await indexFolder(ctx.db, ctx.embedder, dir);
    const texts = chunkTexts();
    expect(texts.some((t) => t.includes('他信'))).toBe(false);
    expectSame(indexBigramStats(ctx), texts);
  });
});
