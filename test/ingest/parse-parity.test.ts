import { describe, expect, it } from 'vitest';
import { localNoteTarget } from '../../main/engine/ingest/links.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { readNote } from '../../main/engine/ingest/read.js';
import { scanFolder } from '../../main/engine/ingest/scan.js';
import type { ParsedNote } from '../../main/engine/types.js';
import { parseNote as parseWithMicromark } from '../support/mdast-parse.js';
import { available, FIXTURE_NOTES, FOAM, SAMPLE_NOTES, SILVERBULLET, STRUCTURE_NOTES } from '../fixtures/paths.js';

/**
 * The markdown-it parser against the micromark one it replaced (kept in test/support as the reference),
 * note by note over real folders: the same titles, front matter, tags and chunks (text, lines, heading
 * paths, code or not), and the same links, except where micromark lost one: a wikilink backed by a link
 * reference definition (Foam writes `[[tags]]` with `[tags]: tags.md` below), which micromark read as a
 * reference link, and a reference-style link to a note (`[see][def]`), which it did not count. So the old
 * links must be the new ones in order, less only such links.
 */
describe('parseNote (markdown-it) against the micromark parser', () => {
  for (const [name, root] of [
    ['the fixture notes', FIXTURE_NOTES],
    ['the structure notes', STRUCTURE_NOTES],
    ['the bundled sample notes', SAMPLE_NOTES],
    ['SilverBullet docs', SILVERBULLET],
    ['Foam docs', FOAM],
  ] as const) {
    it(`gives the same parse of ${name}`, async () => {
      if (!available(root)) return;
      const { files } = await scanFolder(root);
      let compared = 0;
      for (const file of files) {
        const read = await readNote(file.absPath);
        if (!read.ok) continue;
        const now = parseNote(file.relPath, read.content);
        const before = parseWithMicromark(file.relPath, read.content);
        const where = `${name}: ${file.relPath}`;
        expect(now.title, where).toBe(before.title);
        expect(now.lang, where).toBe(before.lang);
        expect(now.frontMatter, where).toEqual(before.frontMatter);
        expect(now.tags, where).toEqual(before.tags);
        expect(now.chunks, where).toEqual(before.chunks);
        expectLinksKeptInOrder(now, before, read.content, where);
        compared++;
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});

/** Constructs where two Markdown parsers could part ways; each is parsed by both. */
const LONG_ITEM = `- ${'a long list item with words '.repeat(30)}\n`;
const LONG_QUOTE = `> ${'a long quoted paragraph with words '.repeat(25)}\n>\n> > a nested quote\n>\n> - a list in the quote\n`;
const EDGE_CASES: Record<string, string> = {
  'front matter, then an H1': '---\ntitle: From Front Matter\ntags: [a, b]\n---\n# Heading\n\nBody #inline.\n',
  'front matter with trailing blanks and an empty body': '---  \n---\nText right after.\n',
  'an unclosed front matter fence': '---\ntitle: x\n\nNo closing fence here.\n',
  'CRLF line ends': '# Title\r\n\r\nLine one\r\nline [[Two]] two\r\n\r\n## Next\r\npara\r\n',
  'code spans, fences and indented code hold no links or tags': 'Text `[[NotALink]] #nottag` and ``a ` [[Nope]]`` then [[Yes]] #yes\n\n```\n[[InFence]] #fence\n```\n\n    [[Indented]] #indented\n',
  'a multi-line code span before links': 'Start `code\nover lines` then [[After]] and [doc](sub/doc.md)\nnext line [[Next]].\n',
  'hashtags next to wikilinks, emphasis and links': '[[a]]#glued and *em*#after, (#paren) x#no #1 #ok-tag/ [#inlink](x) ![#alt](i.png)\n',
  'escapes and entities': 'Not \\#escaped but &#35;entity and [[a&amp;b]] \\*not em\\*\n',
  'setext and ATX headings with images and links': 'Intro.\n\nSetext [[Target|Alias]]\n===\n\n## ![only an image](x.png)\n\n### `code` and **bold**\n\ntext\n\nSub\n---\n\nmore\n',
  'HTML blocks and comments': '<!-- a comment [[NoLink]] -->\n\n  <div>\n[[InHtml]]\n</div>\n\nInline <span>[[InSpan]]</span> <!-- [[InComment]] -->\n',
  'rules, definitions and a trailing H1': 'Body first.\n\n***\n\n[def]: other.md\n\n# Late H1\n\nUnder it, see [def] and [x][def].\n',
  'a long list split at its items': `# T\n\n${LONG_ITEM.repeat(6)}\nAfter.\n`,
  'a long blockquote split at its blocks': `Intro\n\n${LONG_QUOTE.repeat(3)}`,
  'loose and nested lists': '1. one\n\n2. two\n   - nested [[N]]\n\n     more\n3. three\n\n\n- other bullet\n* new list\n',
  'links in many forms': '[a](a.md) [b](<b c.md>) [c](./d/../c.md#x) [e](/abs.md) [w](https://x.md) [p](caf%C3%A9.md) ![img](img.md) <auto.md>\n',
};

describe('parseNote (markdown-it) against the micromark parser on edge cases', () => {
  for (const [name, content] of Object.entries(EDGE_CASES)) {
    it(name, () => {
      const now = parseNote('dir/edge.md', content);
      const before = parseWithMicromark('dir/edge.md', content);
      expect({ ...now, links: null }).toEqual({ ...before, links: null });
      expectLinksKeptInOrder(now, before, content, name);
    });
  }
});

/** Where the two parsers part ways, on purpose. */
describe('parseNote (markdown-it) where it differs from the micromark parser', () => {
  it('honours an escaped bracket: `\\[[x]]` is no wikilink', () => {
    expect(parseWithMicromark('a.md', 'See \\[[Escaped]] and [[Real]].\n').links.map((l) => l.target)).toEqual(['Escaped', 'Real']);
    expect(parseNote('a.md', 'See \\[[Escaped]] and [[Real]].\n').links).toEqual([{ target: 'Real', line: 1 }]);
  });

  it('reads a lone CR as a space, not a line break (notes read from disk have none: read.ts turns them into LF)', () => {
    const note = parseNote('a.md', '# T\n\n## Next\rsame line\n\nbody\n');
    expect(note.chunks.map((c) => c.headingPath)).toEqual([['Next same line']]);
  });

  it('counts reference-style links and definition-backed wikilinks', () => {
    const note = parseNote('d/a.md', 'See [[tags]] and [the guide][g].\n\n[tags]: tags.md\n[g]: guide.md\n');
    expect(note.links).toEqual([
      { target: 'tags', line: 1 },
      { target: 'd/guide.md', line: 1 },
    ]);
    expect(parseWithMicromark('d/a.md', 'See [[tags]] and [the guide][g].\n\n[tags]: tags.md\n[g]: guide.md\n').links).toEqual([]);
  });
});

function expectLinksKeptInOrder(now: ParsedNote, before: ParsedNote, content: string, where: string): void {
  const lines = content.split('\n');
  const definitions = [...content.matchAll(/^ {0,3}\[([^\]]+)\]:[ \t]*<?([^\s>]+)/gm)].map((m) => ({ label: m[1]!, target: localNoteTarget(m[2]!, now.relPath) }));
  let i = 0;
  for (const link of now.links) {
    const old = before.links[i];
    if (old && old.target === link.target && old.line === link.line) {
      i++;
      continue;
    }
    const labelled = (label: string) => label === link.target || (label.startsWith(link.target) && /^[#^|]/.test(label.slice(link.target.length)));
    const wikilink = lines[link.line - 1]?.includes(`[[${link.target}`) === true && definitions.some((d) => labelled(d.label));
    const referenceLink = definitions.some((d) => d.target === link.target);
    expect(wikilink || referenceLink, `${where}: a new link to ${link.target} on line ${link.line}`).toBe(true);
  }
  expect(i, `${where}: every link micromark found`).toBe(before.links.length);
}
