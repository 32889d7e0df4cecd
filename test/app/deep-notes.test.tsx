import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NoteMarkdown } from '../../renderer/src/components/NoteMarkdown.js';
import { AnswerText } from '../../renderer/src/components/AnswerText.js';
import { AppContext, type AppContextValue } from '../../renderer/src/lib/app-context.js';
import { capNesting, MAX_NESTING } from '../../renderer/src/lib/cap-nesting.js';

// Notes nested past anything a page can render (the red-team's 2 KB note of a 1,000-level list blanked
// the UI; 20,000 levels hung the tab): rendered by the app's own Markdown components, the nesting is cut
// before parsing, every word is still shown, and every line keeps its number.
const NOTES: [string, string][] = [
  ['a 1,000-level list on one line (2 KB)', `# Deep\n\n${'- '.repeat(1000)}bottom\n`],
  ['a 20,000-level list on one line', `# Deeper\n\n${'- '.repeat(20_000)}bottom\n`],
  ['1,000 nested quotes', `# Quotes\n\n${'> '.repeat(1000)}bottom\n`],
  ['1,000 ordered levels', `# Numbers\n\n${'1. '.repeat(1000)}bottom\n`],
  ['300 levels by indentation', `# Indented\n\n${Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}\n\nbottom\n`],
];

const render = (text: string) =>
  renderToStaticMarkup(
    <AppContext.Provider value={{ openNote: () => {} } as unknown as AppContextValue}>
      <NoteMarkdown docPath="deep.md" text={text} />
    </AppContext.Provider>,
  );

/** The deepest run of nested ul/ol/blockquote elements in the HTML. */
function nesting(html: string): number {
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)(ul|ol|blockquote)\b/g)) {
    depth += m[1] ? -1 : 1;
    max = Math.max(max, depth);
  }
  return max;
}

describe('a note nested past what a page can render', () => {
  it.each(NOTES)('%s renders, cut to a readable depth, every word kept', (_what, text) => {
    const html = render(text);
    expect(html).toContain('bottom');
    expect(nesting(html)).toBeLessThanOrEqual(MAX_NESTING + 1);
    expect(nesting(html)).toBeGreaterThan(3);
    expect(capNesting(text).split('\n').length).toBe(text.split('\n').length);
  });

  it('keeps every indented level\'s text, in order', () => {
    const html = render(NOTES[4]![1]);
    const levels = [...html.matchAll(/level (\d+)/g)].map((m) => Number(m[1]));
    expect(levels).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('leaves ordinary notes exactly as written', () => {
    const note = '# Plan\n\n- a\n  - b\n    - c\n\n> quote\n> > inner\n\n* * *\n\n```\n            deep code\n```\n';
    expect(capNesting(note)).toBe(note);
  });

  it('an answer nested 5,000 levels deep renders too', () => {
    const html = renderToStaticMarkup(<AnswerText text={`${'- '.repeat(5000)}deep [1]`} onCite={() => {}} known={new Set([1])} />);
    expect(html).toContain('deep');
    expect(nesting(html)).toBeLessThanOrEqual(MAX_NESTING + 1);
  });
});
