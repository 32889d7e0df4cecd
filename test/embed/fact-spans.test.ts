import { describe, expect, it } from 'vitest';
import { locateFact } from '../../main/engine/embed/fact-spans.js';
import { spanTokenRanges } from '../../main/engine/embed/token-spans.js';

describe('locateFact', () => {
  it('places a sentence found verbatim in its passage', () => {
    const passage = 'Alder Creek The creek runs past the mill. It ends in the lake.';
    const span = locateFact(passage, 'It ends in the lake.');
    expect(span).not.toBeNull();
    expect(passage.slice(...span!)).toBe('It ends in the lake.');
  });

  it('places a fast-mode fact whose Markdown was cleaned away by its first and last words, the markup between them included', () => {
    const passage = 'ADR Important [[Architecture]] decisions are captured as [Decision Records](https://adr.github.io/) (template: [[ADR]]). See [[Health]].';
    const span = locateFact(passage, 'Important Architecture decisions are captured as Decision Records (template: ).');
    expect(span).not.toBeNull();
    expect(passage.slice(...span!)).toBe('Important [[Architecture]] decisions are captured as [Decision Records](https://adr.github.io/) (template');
    expect(locateFact(passage, 'See Health for it.')).toBeNull();
  });

  it('passes over what cleaning removed: link addresses, wikilink targets, HTML tags, runs of spaces', () => {
    const links = 'Install [Kettle](https://example.org/downloads/kettle/stable/linux) and the [Grinder Tools](https://example.org/market/items/grinder-tools-extension) extension.';
    expect(links.slice(...locateFact(links, 'Install Kettle and the Grinder Tools extension.')!)).toMatch(/^Install .* extension$/);
    const alias = 'Since [[Decisions/007 Roasting Moved to the Shop|2021]] the roaster runs on gas.';
    expect(alias.slice(...locateFact(alias, 'Since 2021 the roaster runs on gas.')!)).toMatch(/^Since .*gas$/);
    const html = '<td><a href="https://example.org/u/ana"><img alt="Ana Lima" src="x.png"/><b>Ana Lima</b></a></td><td><b>Bo Chen</b></td>';
    expect(html.slice(...locateFact(html, 'Ana Lima Bo Chen')!)).toBe('Ana Lima</b></a></td><td><b>Bo Chen');
    const spaced = `7-24，正文：${' '.repeat(200)}记者24日获悉，新的招录工作正式启动。`;
    expect(locateFact(spaced, '7-24，正文： 记者24日获悉，新的招录工作正式启动。')).not.toBeNull();
  });

  it("places a heading's list-items fact by the items, the heading not being in the passage", () => {
    const passage = '- Framework: Astro\n- Site shell: Starlight\n- Content: generated pages';
    const span = locateFact(passage, 'Default Site Stack: Framework: Astro; Site shell: Starlight; Content: generated pages');
    expect(span && passage.slice(...span)).toBe(passage.slice(2));
    // Words before a colon are passed over, not any words: a fact that only ends like its passage stays out.
    expect(locateFact('A bench stands by the lake today.', 'The old mill stood by the lake today.')).toBeNull();
  });

  it('leaves out a fact in other words than its passage (a model’s), a one-word fact not there verbatim, and an empty one', () => {
    const passage = 'The mill was built in 1820 and houses a bakery.';
    expect(locateFact(passage, 'A bakery occupies the former mill building.')).toBeNull();
    expect(locateFact(passage, 'Bakeries')).toBeNull();
    expect(locateFact(passage, '  ')).toBeNull();
  });

  it('does not stretch a span over a passage far longer than the fact', () => {
    const filler = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const passage = `The old mill stands here. ${filler} by the lake today.`;
    expect(locateFact(passage, 'The old mill by the lake today.')).toBeNull();
  });
});

describe('spanTokenRanges', () => {
  // A whitespace tokenizer: one token per word, as WordPiece gives for words in its vocabulary.
  const count = (piece: string) => piece.split(/\s+/).filter(Boolean).length;
  const text = 'one two three four five six';

  it('maps character spans to token ranges after the leading special tokens', () => {
    const at = (w: string) => text.indexOf(w);
    const ranges = spanTokenRanges(text, [[at('two'), at('four') + 4], [0, 3]], count, 6, 1, 6);
    expect(ranges).toEqual([
      [2, 5],
      [1, 2],
    ]);
  });

  it('gives null for a span past what the model reads of the text', () => {
    expect(spanTokenRanges(text, [[text.indexOf('five'), text.length]], count, 6, 1, 4)).toEqual([null]);
  });

  it('gives every span null when a boundary cuts a token (the pieces do not add up to the text)', () => {
    expect(spanTokenRanges(text, [[1, 7]], count, 6, 1, 6)).toEqual([null]);
  });
});
