import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { toString } from 'mdast-util-to-string';
import type { Paragraph } from 'mdast';
import { boldThen, markdownText } from '../../main/engine/answer/markdown.js';

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

  it.each(WRITTEN)('keeps a bold path %j one bold run, with the text after it', (text) => {
    const p = read(boldThen(text, ` — ${text}`));
    expect(p.children[0]!.type).toBe('strong');
    expect(toString(p.children[0]!)).toBe(text);
    expect(p.children.slice(1).map((c) => c.type).filter((t) => !PLAIN.has(t))).toEqual([]);
    expect(toString({ type: 'paragraph', children: p.children.slice(1) })).toBe(` — ${text}`);
  });

  it('keeps a bullet on one line', () => {
    expect(markdownText('first line\nsecond line')).toBe('first line second line');
  });
});
