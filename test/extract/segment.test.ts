import { describe, expect, it } from 'vitest';
import { normaliseEntity, singular } from '../../main/engine/text/entity-norm.js';
import { detectLang } from '../../main/engine/text/lang.js';
import { queryTerms, segmentForIndex, segmentWords } from '../../main/engine/text/segment.js';
import { readNewsArticles } from '../fixtures/crud-news.js';
import { available, CRUD_NEWS } from '../fixtures/paths.js';

const HAN_RUN = /\p{Script=Han}+/gu;

describe('segmentForIndex', () => {
  it('lowercases words, drops punctuation and joins with single spaces', () => {
    expect(segmentForIndex('Hello, World!  Roast at 205 °C — then   cool.')).toBe('hello world roast at 205 c then cool');
  });

  it('folds full-width letters and digits (NFKC) so they match ASCII queries', () => {
    expect(segmentForIndex('ＸｅＳＳ　１２３')).toBe('xess 123');
  });

  it('cuts Chinese into words with jieba without losing or reordering characters', () => {
    const text = '京东集团今日发布财报，营收比去年同期增长了百分之七。Intel XeSS 支持动态分辨率缩放。';
    const words = segmentWords(text);
    const han = words.filter((w) => /\p{Script=Han}/u.test(w));
    expect(han.join('')).toBe(text.match(HAN_RUN)!.join(''));
    expect(han.some((w) => [...w].length >= 2)).toBe(true);
    expect(han.length).toBeLessThan(text.match(HAN_RUN)!.join('').length);
    expect(words).toContain('intel');
    expect(words).toContain('xess');
    expect(segmentForIndex(text)).not.toMatch(/ {2}|^ | $/);
    expect(segmentForIndex(text).split(' ')).toEqual(expect.arrayContaining(words));
  });

  it('indexes the words inside long Chinese words too, so short queries match', () => {
    const indexed = segmentForIndex('中华人民共和国国务院发布了新的规定').split(' ');
    expect(indexed).toContain('中华人民共和国国务院');
    for (const term of queryTerms('国务院发布了什么规定？')) expect(indexed).toContain(term);
    expect(segmentWords('中华人民共和国国务院')).toEqual(['中华人民共和国国务院']);
  });

  it('segments real Chinese news: precise words cover the text, the index holds every precise word', async () => {
    if (!available(CRUD_NEWS)) return;
    const articles = await readNewsArticles(CRUD_NEWS, 20);
    const started = performance.now();
    for (const { text } of articles) {
      const precise = segmentWords(text).filter((w) => /\p{Script=Han}/u.test(w));
      expect(precise.join('')).toBe((text.normalize('NFKC').match(HAN_RUN) ?? []).join(''));
      expect(precise.filter((w) => [...w].length >= 2).length).toBeGreaterThan(precise.length / 4);
      const indexed = new Set(segmentForIndex(text).split(' '));
      for (const w of precise) expect(indexed.has(w), w).toBe(true);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('queryTerms', () => {
  it('removes English and Chinese stop words and question words', () => {
    expect(queryTerms('What is the capital of France?')).toEqual(['capital', 'france']);
    const zh = queryTerms('谁创立了京东集团？');
    expect(zh).not.toContain('谁');
    expect(zh).not.toContain('了');
    expect(zh.join('')).toContain('京东');
  });

  it('leaves out "so" as in "so that", a function word the stopword package does not list', () => {
    expect(queryTerms('How can I run it so that nobody can edit pages?')).toEqual(['run', 'nobody', 'edit', 'pages']);
  });

  it('deduplicates and keeps numbers', () => {
    expect(queryTerms('coffee coffee 2014 Coffee')).toEqual(['coffee', '2014']);
  });
});

describe('detectLang', () => {
  it('tells Chinese, English and other scripts apart', () => {
    expect(detectLang('英特尔已经为游戏开发者提供了最新的 XeSS 1.2.0 版本')).toBe('zh');
    expect(detectLang('The quick brown fox jumps over the lazy dog.')).toBe('en');
    expect(detectLang('Быстрая коричневая лиса прыгает')).toBe('other');
    expect(detectLang('1234 !!')).toBe('other');
  });
});

describe('normaliseEntity', () => {
  it('merges spelling variants of one name', () => {
    expect(normaliseEntity('The Coffee Roasters')).toBe(normaliseEntity('coffee roaster'));
    expect(normaliseEntity('Kestrel  Coffee-Works')).toBe('kestrel coffee work');
    expect(normaliseEntity('ＳｉｌｖｅｒＢｕｌｌｅｔ')).toBe('silverbullet');
    expect(normaliseEntity('京东集团')).toBe('京东集团');
  });

  it('folds regular English plurals only', () => {
    expect(singular('berries')).toBe('berry');
    expect(singular('boxes')).toBe('box');
    expect(singular('beans')).toBe('bean');
    expect(singular('glass')).toBe('glass');
    expect(singular('status')).toBe('status');
    expect(singular('gas')).toBe('gas');
  });
});
