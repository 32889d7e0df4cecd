import { describe, expect, it } from 'vitest';
import { answerFound, normalizeAnswer, percentile, rankedDocuments, recallAtK } from '../../main/bench/metrics.js';

describe('bench metrics', () => {
  it('recall@k counts gold documents among the first k distinct documents', () => {
    const docs = rankedDocuments([7, 7, 3, 9, 3, 1]);
    expect(docs).toEqual([7, 3, 9, 1]);
    expect(recallAtK(docs, [3, 1], 2)).toBe(0.5);
    expect(recallAtK(docs, [3, 1], 4)).toBe(1);
    expect(recallAtK(docs, [42], 10)).toBe(0);
  });

  it('answer recall matches normalised whole-word spans and skips yes/no answers', () => {
    expect(normalizeAnswer('The  Beatles!')).toBe('beatles');
    expect(answerFound('They signed with the Beatles in 1962.', ['The Beatles'])).toBe(1);
    expect(answerFound('Beatlemania swept the world.', ['Beatles'])).toBe(0);
    expect(answerFound('São Paulo is large', ['Sao Paulo'])).toBe(1);
    expect(answerFound('anything', ['yes'])).toBeNull();
  });

  it('percentiles use the nearest rank', () => {
    const v = [5, 1, 4, 2, 3, 6, 7, 8, 9, 10];
    expect(percentile(v, 50)).toBe(5);
    expect(percentile(v, 95)).toBe(10);
    expect(percentile([2], 95)).toBe(2);
  });
});
