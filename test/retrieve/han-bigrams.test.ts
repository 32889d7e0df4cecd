import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionBigrams, withBigrams } from '../../main/engine/retrieve/zh/han-bigrams.js';
import { bigramStats, dfOf, hanBigrams } from '../../main/engine/retrieve/zh/han-bigram-counts.js';
import { analyseQuery, bm25Ranking } from '../../main/engine/retrieve/query.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci/retriever.js';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

const key = (s: string) => ((s.charCodeAt(0) << 16) | s.charCodeAt(1)) >>> 0;

describe('character bigrams for Chinese', () => {
  it('counts each bigram once per text and breaks bigrams at non-Han characters', () => {
    expect(hanBigrams('他信，信落地').map((k) => String.fromCharCode(k >>> 16, k & 0xffff))).toEqual(['他信', '信落', '落地']);
    const s = bigramStats([{ text: '落地落地' }, { text: '落地 曼谷' }, { text: 'no Han here' }]);
    expect(s.chunks).toBe(3);
    expect(dfOf(s, key('落地'))).toBe(2);
    expect(dfOf(s, key('地落'))).toBe(1);
    expect(dfOf(s, key('地曼'))).toBe(0);
    expect(dfOf(s, key('曼谷'))).toBe(1);
  });

  it('leaves out bigrams that are question words, keeps those across a cut', () => {
    const grams = questionBigrams({ question: '他信什么时候落地？' }).map((k) => String.fromCharCode(k >>> 16, k & 0xffff));
    expect(grams).toContain('他信');
    expect(grams).toContain('落地');
    expect(grams).not.toContain('什么');
  });

  describe('in loci, over a real index', () => {
    let notes: IndexedNotes | undefined;
    beforeAll(async () => {
      notes = await indexNotes('loci-bigrams-', {
        'a.md': '# 新闻一\n\n泰国前总理他信的专机于周二上午落地曼谷。\n',
        'b.md': '# 新闻二\n\n邮局说，信在周二寄出；信的收件人住在曼谷。\n',
        'c.md': '# 新闻三\n\n航班周二落地，乘客说信号很差。\n',
        'd.md': '# Flights\n\nThe flight landed in Bangkok on Tuesday morning.\n',
      });
    }, 60_000);
    afterAll(() => notes?.close());

    // jieba cuts the question's 他信落地 as 他 / 信 / 落地, so word BM25 matches 信 in the letter note
    // and misses the name; the bigram 他信 does not depend on the cut.
    it('finds the note holding a name the question’s word cut split', async () => {
      const ctx = notes!.ctx;
      const q = '警方将在他信落地后抓捕他吗？';
      const bm25 = await retrieve(ctx, q, 'bm25', 3);
      expect(bm25.contexts[0]?.docTitle).toBe('新闻二');
      ctx.cache.forgetQuestions();
      // Without the bigrams, and without joining 他 / 信 back into the word (han-recut.ts finds the same name).
      const without = await createLociRetriever({ bigramShare: 0, joinHanWords: false })(ctx, q, 3);
      expect(without.contexts[0]?.docTitle).not.toBe('新闻一');
      ctx.cache.forgetQuestions();
      const loci = await lociRetriever(ctx, q, 3);
      expect(loci.contexts[0]?.docTitle).toBe('新闻一');
    });

    it('changes nothing for a question with no Han text', async () => {
      const ctx = notes!.ctx;
      const qa = await analyseQuery(ctx, 'when did the flight land in Bangkok?');
      const words = bm25Ranking(ctx, qa, 10);
      expect(words.length).toBeGreaterThan(0);
      expect(withBigrams(ctx, qa, words, 0.5)).toBe(words);
    });
  });
});
