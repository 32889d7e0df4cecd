import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AnswerText } from '../../renderer/src/components/AnswerText.js';
import { formatEta, lineRange } from '../../renderer/src/lib/format.js';
import { pathThenFact } from '../../main/engine/answer/markdown.js';
import { PathTitle } from '../../renderer/src/components/PathTitle.js';
import { groundAnswer } from '../../main/engine/answer/grounding.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_NOTES } from '../fixtures/paths.js';

// How an answer's text becomes UI: citations become buttons only when the answer has that source, and
// nothing in the text is ever treated as HTML.
const render = (text: string, known: number[]) => renderToStaticMarkup(<AnswerText text={text} onCite={() => {}} known={new Set(known)} />);

describe('AnswerText', () => {
  it('turns known [n] into citation buttons and leaves unknown ones as text', () => {
    const html = render('Roast to first crack [1] and rest [7].', [1]);
    expect(html).toContain('aria-label="Open source 1"');
    expect(html).not.toContain('Open source 7');
    expect(html).toContain('[7]');
  });

  it('renders bullets and bold from the extractive answer format', () => {
    const html = render('Intro line.\n\n- **A › B** [1]\n- **C** [2]', [1, 2]);
    expect(html).toMatch(/<ul>\s*<li><strong>A › B<\/strong>/);
    expect((html.match(/<li>/g) ?? []).length).toBe(2);
  });

  it('escapes HTML in answers', () => {
    const html = render('<img src=x onerror=alert(1)> [1]', [1]);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img');
    expect(html).toContain('aria-label="Open source 1"');
  });

  it('shows a link or an image a model writes as its text, fetching and opening nothing', () => {
    const html = render('See [the guide](https://example.com/guide) and ![a chart](https://example.com/c.png) [1]', [1]);
    expect(html).not.toMatch(/<a |<img /);
    expect(html).toContain('the guide');
    expect(html).toContain('a chart');
    expect(html).toContain('aria-label="Open source 1"');
  });

  it('shows sources a model lists as `[1]: note` as written, and keeps every [1] a citation', () => {
    const html = render('Mara was born in Tromsø [1], and founded it [2].\n\n[1]: People/Mara.md\n[2]: Kestrel.md "lines 3-5"', [1, 2]);
    expect(html).toContain('People/Mara.md');
    expect(html).toContain('Kestrel.md &quot;lines 3-5&quot;');
    // Each mark in the sentence and in the list of sources is a citation; none became a link.
    expect((html.match(/aria-label="Open source 1"/g) ?? []).length).toBe(2);
    expect((html.match(/aria-label="Open source 2"/g) ?? []).length).toBe(2);
    expect(html).not.toMatch(/<a /);
  });

  it('shows a note’s own "[2]" (a clipped footnote) as text, not as a citation, and code as written', () => {
    const bullet = `- ${pathThenFact('People › Mara was born in Tromsø in 1986.[2]', 'Mara was born in Tromsø in 1986.[2]')} [1]\n- Other [2]\n\n\`\`\`\ngrep \\[2\\] notes.md\n\`\`\``;
    const html = render(bullet, [1, 2]);
    expect(html).toContain('born in Tromsø in 1986.[2]</strong>');
    expect((html.match(/aria-label="Open source 2"/g) ?? []).length).toBe(1);
    expect((html.match(/aria-label="Open source 1"/g) ?? []).length).toBe(1);
    expect(html).toContain('<code>grep \\[2\\] notes.md');
  });

  it('renders the table a lead-in brings inside its bullet', () => {
    const html = render('- **Snippets › Insert a link with these snippets:** [1]\n  | Snippet | Inserts |\n  | --- | :---: |\n  | `/today` | today [1] |\n  | … | … |\n- **Other** [2]', [1, 2]);
    expect(html).toMatch(/<li><strong>Snippets › Insert a link with these snippets:<\/strong> <button[^>]*>1<\/button>\s*<table>/);
    expect((html.match(/<tr>/g) ?? []).length).toBe(3);
    expect(html).toContain('<code>/today</code>');
    expect((html.match(/<li>/g) ?? []).length).toBe(2);
  });

  it('renders the code block a lead-in brings inside its bullet, with no citation made of code', () => {
    const html = render('- **CLI › Show only backlinks:** [1]\n  ```bash\n  notes links --incoming [2]\n  ```\n- **Other** [2]', [1, 2]);
    expect(html).toMatch(/<li><strong>CLI › Show only backlinks:<\/strong> <button[^>]*>1<\/button>\s*<pre><code class="language-bash">notes links --incoming \[2\]/);
    expect((html.match(/aria-label="Open source 2"/g) ?? []).length).toBe(1);
    expect((html.match(/<li>/g) ?? []).length).toBe(2);
  });
});

describe('formatting', () => {
  it('describes line ranges and ETAs', () => {
    expect(lineRange(3, 3)).toBe('line 3');
    expect(lineRange(3, 9)).toBe('lines 3–9');
    expect(lineRange(null, null)).toBe('');
    expect(formatEta(42)).toBe('about 42 s left');
    expect(formatEta(125)).toBe('about 2 min 5 s left');
    expect(formatEta(null)).toBe('');
  });
});

describe('PathTitle', () => {
  it('mutes the path before a source’s last label, and shows a label with no path as it is', () => {
    const html = renderToStaticMarkup(<PathTitle path="Docker › Container › The container binds to port 3000." />);
    expect(html).toMatch(/^<span class="[^"]*sourceTitle[^"]*"><span class="[^"]*sourcePath[^"]*">Docker › Container › <\/span>The container binds to port 3000.<\/span>$/);
    expect(renderToStaticMarkup(<PathTitle path="Plain fact." />)).toMatch(/^<span class="[^"]*sourceTitle[^"]*">Plain fact.<\/span>$/);
  });

  it('marks, subtly, the sentences of a generated answer that no passage of the notes supports, and no other', async () => {
    // Grounded against a real note's text: the first sentence is in it, the second is not.
    const note = readFileSync(join(SAMPLE_NOTES, 'people/Mara Lindqvist.md'), 'utf8');
    const contexts = [{ text: note, docId: 1, docPath: 'people/Mara Lindqvist.md', docTitle: 'Mara Lindqvist', lineFrom: 1, lineTo: note.split('\n').length, factPath: null, score: 1, kind: 'chunk' as const }];
    const g = await groundAnswer('Mara Lindqvist was born in Tromsø. She won the **world barista championship** in 2019.', contexts);
    expect(g.support.map((s) => s.supported)).toEqual([true, false]);
    const html = renderToStaticMarkup(<AnswerText text={g.text} onCite={() => {}} known={new Set(g.citations)} support={g.support} />);
    expect((html.match(/data-testid="unsupported"/g) ?? []).length).toBe(1);
    // The mark follows the unsupported sentence, whose Markdown still renders.
    expect(html).toMatch(/<strong>world barista championship<\/strong> in 2019\.<abbr[^>]*>not found in your notes<\/abbr>/);
    expect(html).toContain('aria-label="Open source 1"');
  });
});

