import { describe, expect, it } from 'vitest';
import { fastKeyPoints, keyPhrases } from '../../main/engine/retrieve/pgr/key-points.js';
import { availableMethods, needsKeyPoints } from '../../main/engine/retrieve/index.js';

describe('fast-mode key points', () => {
  it('are the question plus its names and quoted titles, without the sentence-initial question word', () => {
    const q = 'Who directed the film "The Long Goodbye" starring Elliott Gould?';
    const kps = fastKeyPoints(q);
    expect(kps[0]).toBe(q);
    expect(kps).toContain('The Long Goodbye');
    expect(kps).toContain('Elliott Gould');
    expect(kps).not.toContain('Who');
  });

  it('keep multi-word names with lowercase joiners together', () => {
    expect(keyPhrases('When did the Duke of York marry?')).toEqual(['Duke of York']);
  });

  it('use jieba keywords for Chinese questions', () => {
    const phrases = keyPhrases('郧西县是哪个省的县市区？');
    expect(phrases.length).toBeGreaterThan(0);
    expect(phrases).toContain('郧西县');
  });

  it('give just the question when it has no key phrase', () => {
    expect(fastKeyPoints('what is this?')).toEqual(['what is this?']);
  });
});

describe('which methods read key points', () => {
  it('only pgr: loci and the rest are asked no model generation for them', () => {
    expect(availableMethods().filter(needsKeyPoints)).toEqual(['pgr']);
  });
});
