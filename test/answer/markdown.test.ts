import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { toString } from 'mdast-util-to-string';
import type { Paragraph } from 'mdast';
import { leadThenBold, markdownText, pathThenFact } from '../../main/engine/answer/markdown.js';

// Facts are plain text from notes; the answer is Markdown read with GFM. What a note says must come back
// as written, with the bold path still one bold run. (GFM turns a bare URL into a link whatever the
// escaping; the window shows a link in an answer as its text.)
const PLAIN = new Set(['text', 'link']);
const read = (markdown: string) => {
  const root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  expect(root.children).toHaveLength(1);
  return root.children[0] as Paragraph;
};

const WRITTEN = [
  'Note Templates › FOAM_DATE_* variables',
  'snake_case_name and *stars* and **double**',
  'Use ~/notes/~ and ~~not struck~~',
  'a <br> tag, <https://example.com> and &amp; entity',
  'see [the guide](https://example.com) and [1] and ![img](x.png)',
  'a `code span` and a \\ backslash | pipe',
  '1. not a list',
  '# not a heading',
  'https://example.com/plain',
];

describe('answer Markdown from plain text', () => {
  it.each(WRITTEN)('shows %j as written', (text) => {
    const p = read(markdownText(text));
    expect(p.children.map((c) => c.type).filter((t) => !PLAIN.has(t))).toEqual([]);
    expect(toString(p)).toBe(text);
  });

  it.each(WRITTEN)('keeps a bold fact %j one bold run, with its path before it as written', (text) => {
    const p = read(leadThenBold(`${text} › `, text));
    const last = p.children.at(-1)!;
    expect(last.type).toBe('strong');
    expect(toString(last)).toBe(text);
    expect(p.children.slice(0, -1).map((c) => c.type).filter((t) => !PLAIN.has(t))).toEqual([]);
    expect(toString({ type: 'paragraph', children: p.children.slice(0, -1) })).toBe(`${text} › `);
  });

  it('bolds the fact of a path, the whole last label when the fact is its tail, and a fact the path does not end with', () => {
    const bold = (markdown: string) => read(markdown).children.filter((c) => c.type === 'strong').map((c) => toString(c));
    expect(bold(pathThenFact('Docker › Container › The container binds to port 3000.', 'The container binds to port 3000.'))).toEqual(['The container binds to port 3000.']);
    expect(toString(read(pathThenFact('Docker › Container › The container binds to port 3000.', 'The container binds to port 3000.')))).toBe(
      'Docker › Container › The container binds to port 3000.',
    );
    expect(bold(pathThenFact('Daily Notes › Creating Daily Notes: Command: Ctrl+Shift+P', 'Command: Ctrl+Shift+P'))).toEqual(['Creating Daily Notes: Command: Ctrl+Shift+P']);
    expect(bold(pathThenFact('Serving › Ports', 'It listens on 3000.'))).toEqual(['It listens on 3000.']);
    expect(toString(read(pathThenFact('Serving › Ports', 'It listens on 3000.')))).toBe('Serving › Ports — It listens on 3000.');
    expect(bold(pathThenFact('Just a fact.', 'Just a fact.'))).toEqual(['Just a fact.']);
  });

  it('keeps a bullet on one line', () => {
    expect(markdownText('first line\nsecond line')).toBe('first line second line');
  });
});
