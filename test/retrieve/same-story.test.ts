import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigramVector, cosine, withSameStory } from '../../main/engine/retrieve/zh/same-story.js';
import { bigramStats } from '../../main/engine/retrieve/zh/han-bigram-counts.js';
import { analyseQuery, bm25Ranking } from '../../main/engine/retrieve/query.js';
import { createLociRetriever, lociRetriever } from '../../main/engine/retrieve/loci/retriever.js';
import { coldTitles, indexNotes, type IndexedNotes } from '../support/indexed-notes.js';
import type { Retriever } from '../../main/engine/retrieve/retriever.js';

describe('the same-story lift for Chinese questions', () => {
  it('compares passages by the cosine of their Han-bigram vectors, with or without idf', () => {
    const text = '台风登陆福建，渔船回港避风。';
    const stats = bigramStats([{ text }, { text: '渔船出海捕鱼' }]);
    expect(cosine(bigramVector(text, stats), bigramVector(text))).toBeGreaterThan(0.9);
    expect(cosine(bigramVector(text), bigramVector(text))).toBeCloseTo(1, 6);
    expect(cosine(bigramVector(text), bigramVector('今天天气很好'))).toBe(0);
    const v = bigramVector('渔船渔船回港');
    expect([...v.keys]).toEqual([...v.keys].sort((a, b) => a - b));
    expect(bigramVector('no Han here').keys.length).toBe(0);
  });

  describe('in loci, over a real index', () => {
    let notes: IndexedNotes | undefined;
    beforeAll(async () => {
      notes = await indexNotes('loci-same-story-', {
        // The article the question is asked of, and another outlet's report of the same event that
        // shares its wording but hardly the question's words.
        'a.md': '# 报道一\n\n台风杜苏芮于周五上午在福建晋江沿海登陆，登陆时中心附近最大风力十五级。福建省启动防台风一级应急响应，沿海渔船全部回港避风，多地学校停课。\n',
        'b.md': '# 报道二\n\n周五上午，福建省启动防台风一级应急响应，晋江沿海渔船全部回港避风，中心附近最大风力十五级，多地学校停课，铁路部门停运部分列车。\n',
        // A note that says 台风 more often than the second report, about nothing in particular.
        'c.md': '# 科普\n\n气象专家说，台风是热带气旋的一种，台风的名字由亚太多国轮流提供，台风季节一般从夏季开始。\n',
        'd.md': '# 体育\n\n周五晚上的足球比赛中，主队两球获胜，球迷在看台上欢呼。\n',
        'e.md': '# 经济\n\n上半年全省外贸进出口总额同比增长，出口增速高于进口。\n',
        'f.md': '# Storms\n\nThe typhoon made landfall on the coast on Friday morning.\n',
      });
    }, 60_000);
    afterAll(() => notes?.close());

    it('ranks the second report of the story above a note that only repeats a question word', async () => {
      const ctx = notes!.ctx;
      const q = '台风杜苏芮在哪里登陆？';
      const titles = (r: Retriever) => coldTitles(ctx, r, q, 6);
      const without = await titles(createLociRetriever({ sameStory: 0 }));
      expect(without[0]).toBe('报道一');
      expect(without.indexOf('科普')).toBeLessThan(without.indexOf('报道二'));
      const withLift = await titles(lociRetriever);
      expect(withLift[0]).toBe('报道一');
      expect(withLift[1]).toBe('报道二');
    });

    it('changes nothing for a question with no Han text', async () => {
      const ctx = notes!.ctx;
      const qa = await analyseQuery(ctx, 'where did the typhoon make landfall?');
      const words = bm25Ranking(ctx, qa, 10);
      expect(words.length).toBeGreaterThan(0);
      expect(withSameStory(ctx, qa, words, 0.5)).toBe(words);
    });
  });
});
