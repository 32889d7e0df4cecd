import { describe, expect, it } from 'vitest';
import { placeWordsOf } from '../../main/engine/text/place-adjectives.js';
import { termMatcher } from '../../main/engine/answer/term-match.js';
import { sampleNotesEngine } from '../support/sample-notes-engine.js';

describe('the adjective of a place and the place (WordNet pertainyms to noun.location)', () => {
  it.each([
    ['ethiopian', 'ethiopia'],
    ['swedish', 'sweden'],
    ['norwegian', 'norway'],
    ['parisian', 'paris'],
  ])('joins the adjective %s to %s, however it is written', (word, place) => {
    expect(placeWordsOf(word, false)).toContain(place);
    expect(placeWordsOf(word, true)).toContain(place);
  });

  it.each([
    ['ethiopia', 'ethiopian'],
    ['japan', 'japanese'],
    ['turkey', 'turkish'],
    ['china', 'chinese'],
  ])('joins the place %s to %s only when it is written as a name', (word, adjective) => {
    expect(placeWordsOf(word, true)).toContain(adjective);
    // "turkey" the bird, "china" the porcelain.
    expect(placeWordsOf(word, false).size).toBe(0);
  });

  // Orthodox → Judaism and Christian → Christianity are WordNet pertainyms too, but not to places.
  it.each(['orthodox', 'christian', 'new', 'coffee'])('has nothing for %s', (word) => {
    expect(placeWordsOf(word, true).size).toBe(0);
  });

  it('lets a fact that names the place hold the question’s adjective, once', () => {
    const match = termMatcher(['ethiopian', 'beans'], new Map([['ethiopian', ['ethiopia']]]));
    expect([...match.termsIn('grown in the Guji zone of southern Ethiopia')]).toEqual(['ethiopian']);
    expect([...match.termsIn('Ethiopian beans, from Ethiopia')].sort()).toEqual(['beans', 'ethiopian']);
  });
});

describe('asking the sample notes about "the Ethiopian beans"', () => {
  const samples = sampleNotesEngine('loci-place-');

  // The note is "Ethiopia Guji Natural" and never says "Ethiopian": BM25 and the title ranking found it
  // only once they searched for the place too.
  it.each(['bm25', 'loci'] as const)('%s finds the note on Ethiopia', async (method) => {
    const { contexts } = await samples.engine.answers.ask('What did I think of the Ethiopian beans?', { method, k: 8 });
    expect(contexts.map((c) => c.docPath)).toContain('beans/Ethiopia Guji Natural.md');
  });
});
