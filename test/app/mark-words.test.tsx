import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import { describe, expect, it } from 'vitest';
import { matchKeys, termMatcher } from '../../main/engine/answer/term-match.js';
import { markPattern, rehypeMarkWords } from '../../renderer/src/lib/rehype-mark-words.js';

// The question's words marked in an answer's passages: the keys come from the engine's own term matching
// (the extractive answer's), and the window marks the words those keys match, after sanitizing.
const render = (markdown: string, keys: string[]) =>
  renderToStaticMarkup(
    <Markdown rehypePlugins={[rehypeSanitize, [rehypeMarkWords, { keys }]]} skipHtml>
      {markdown}
    </Markdown>,
  );
const marked = (html: string) => [...html.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1]);

describe('marking the question’s words in passages', () => {
  it('marks whole words that start with a key, not a key inside a word, and Han keys anywhere', () => {
    const keys = matchKeys(['founded', 'born', '赖清德']);
    const html = render('Mara is the **founder** of Kestrel; she was born in Tromsø. A newborn roaster.\n\n报道称赖清德今天表示', keys);
    expect(marked(html)).toEqual(['founder', 'born', '赖清德']);
    // Inside bold text too, and the Markdown still renders.
    expect(html).toContain('<strong><mark>founder</mark></strong>');
  });

  it('marks exactly the words the extractive answer matches', () => {
    const terms = ['founded', 'roasting', 'born', 'be'];
    const text = 'She founded a roastery; roasts are born of patience, and she is a founder. Beans be good.';
    const keys = matchKeys(terms);
    const words = text.match(markPattern(keys)!) ?? [];
    // Every marked word holds a term the answer's matcher finds in it, and every term it finds is marked.
    const match = termMatcher(terms);
    expect(words.length).toBeGreaterThan(0);
    for (const w of words) expect(match.termsIn(w).size).toBeGreaterThan(0);
    expect(new Set(words.flatMap((w) => [...match.termsIn(w)]))).toEqual(match.termsIn(text));
  });

  it('marks nothing without keys, and treats keys as text, not patterns', () => {
    expect(markPattern([])).toBeNull();
    expect(marked(render('a (b) c', ['(b']))).toEqual(['(b']);
    expect(marked(render('a.b and axb', ['a.b']))).toEqual(['a.b']);
  });
});
