import { describe, expect, it } from 'vitest';
import { extractFast } from '../../main/engine/extract/fast/index.js';
import { parseNote } from '../../main/engine/ingest/parse.js';

// A callout's label (Obsidian's and GitHub's `> [!tip] Title`, SilverBullet's `> **note** Note`) names the
// box; it is not the first words of the sentence under it, and the box's type is no word of its facts.
const NOTE = [
  '# Brewing', //                                                        1
  '', //                                                                 2
  '> **note** Note', //                                                  3
  '> The desktop app is another way to run the brewer.', //              4
  '', //                                                                 5
  '> [!tip]- Grind finer for espresso shots', //                         6
  '> Use eighteen grams of coffee for a double.', //                     7
  '', //                                                                 8
  '> [!WARNING]', //                                                     9
  '> Never pour boiling water on a cold glass carafe.', //              10
  '', //                                                                11
  '> **Note**: the kettle switches itself off at the boil.', //         12
  '', //                                                                13
  '> A quote that is only a quote, spoken by the roaster.', //          14
].join('\n');

describe('callouts in fast extraction', () => {
  const facts = extractFast(parseNote('Brewing.md', NOTE)).fcis;
  const at = (line: number) => facts.filter((f) => f.lineFrom === line).map((f) => f.text);

  it('drops a label that only names the type, and starts the body as a sentence of its own', () => {
    expect(at(4)).toEqual(['The desktop app is another way to run the brewer.']);
    expect(at(10)).toEqual(['Never pour boiling water on a cold glass carafe.']);
    expect(facts.some((f) => /\[!|\bnote Note\b/.test(f.text))).toBe(false);
  });

  it('keeps a callout title as its own sentence, not run into the body', () => {
    expect(at(6)).toEqual(['Grind finer for espresso shots']);
    expect(at(7)).toEqual(['Use eighteen grams of coffee for a double.']);
  });

  it('leaves bold lead-ins and plain quotes as the sentences they are', () => {
    expect(at(12)).toEqual(['Note: the kettle switches itself off at the boil.']);
    expect(at(14)).toEqual(['A quote that is only a quote, spoken by the roaster.']);
  });
});
