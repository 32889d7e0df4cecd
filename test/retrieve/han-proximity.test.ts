import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bestWindowShare, distanceBonus, minPairDistance, termOffsets, withProximity } from '../../main/engine/retrieve/zh/han-proximity.js';
import { analyseQuery, bm25Ranking } from '../../main/engine/retrieve/query.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci/retriever.js';
import { coldTitles, indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import type { Retriever } from '../../main/engine/retrieve/retriever.js';

describe('term proximity for Chinese questions', () => {
  it('measures how close the question words stand, by character offsets', () => {
    const text = '受暴雨影响，京港澳高速公路保定段封闭。另据报道，市区多条道路积水。';
    const offsets = termOffsets(text, ['暴雨', '封闭', '积水', '台风']);
    expect(offsets).toEqual([[1], [text.indexOf('封闭')], [text.indexOf('积水')], []]);
    expect(minPairDistance(offsets)).toBe(Math.min(text.indexOf('封闭') - 1, text.indexOf('积水') - text.indexOf('封闭')));
    expect(minPairDistance([[3], [], []])).toBeNull();
    // Close words earn more than distant ones, nothing when fewer than two occur.
    expect(distanceBonus(2)).toBeGreaterThan(distanceBonus(40));
    expect(distanceBonus(null)).toBe(0);
    // Within 20 characters only 暴雨 and 封闭 stand together (weights 1 + 2 of 1 + 2 + 1 + 4).
    expect(bestWindowShare(offsets, [1, 2, 1, 4], 20)).toBeCloseTo(3 / 8, 6);
    expect(bestWindowShare(offsets, [1, 2, 1, 4], 100)).toBeCloseTo(4 / 8, 6);
  });

  describe('in loci, over a real index', () => {
    let notes: IndexedNotes | undefined;
    beforeAll(async () => {
      notes = await indexNotes('loci-han-proximity-', {
        // The report that says it: the question's words in one sentence, in a longer article.
        'a.md':
          '# 报道一\n\n昨日午后，暴雨导致京港澳高速公路保定段临时封闭。当地交警在各入口设置了提示牌，引导车辆绕行国道。' +
          '气象部门提醒市民关注天气预报，合理安排出行时间。电力部门连夜巡查线路，保障居民用电。' +
          '多所学校推迟了开学典礼，商场和景区也调整了营业时间。\n',
        // A shorter note that names the same words as often or more, each in a paragraph about something else.
        'b.md':
          '# 综述\n\n暴雨季节，农民抢收小麦，暴雨过后田间积水。\n\n' +
          '新修的高速公路通车一年，高速公路沿线的服务区增加了充电桩。\n\n' +
          '图书馆因装修封闭三个月，读者可以去分馆借书，封闭期间网上服务照常。\n',
        'c.md': '# 体育\n\n周五晚上的足球比赛中，主队两球获胜，球迷在看台上欢呼。\n',
        'd.md': '# 经济\n\n上半年全省外贸进出口总额同比增长，出口增速高于进口。\n',
        'e.md': '# 文化\n\n博物馆推出夏季特展，展出青铜器和书画作品两百余件。\n',
        'f.md': '# Roads\n\nThe motorway was closed after heavy rain on Friday.\n',
      });
    }, 60_000);
    afterAll(() => notes?.close());

    const question = '暴雨导致哪条高速公路封闭？';

    it('ranks the report where the question words stand together above one that scatters them', async () => {
      const ctx = notes!.ctx;
      const titles = (r: Retriever) => coldTitles(ctx, r, question, 6);
      const without = await titles(createLociRetriever({ proximity: { minDistance: 0, window: 0, windowChars: 60 } }));
      expect(without.indexOf('综述')).toBeLessThan(without.indexOf('报道一'));
      const closeFirst = await titles(lociRetriever);
      expect(closeFirst[0]).toBe('报道一');
    });

    it('changes nothing for a question with no Han text', async () => {
      const ctx = notes!.ctx;
      const qa = await analyseQuery(ctx, 'which motorway was closed after heavy rain?');
      const words = bm25Ranking(ctx, qa, 10);
      expect(words.length).toBeGreaterThan(0);
      expect(withProximity(ctx, qa, words, { minDistance: 0.05, window: 0.2, windowChars: 60 })).toBe(words);
    });
  });
});
