import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHUNK_CHARS } from '../../main/engine/ingest/chunk.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { readNote } from '../../main/engine/ingest/read.js';
import type { ParsedNote } from '../../main/engine/types.js';
import { citedLines, loadFolder, type LoadedNote } from '../fixtures/notes-loader.js';
import { available, FIXTURE_NOTES, FOAM, SAMPLE_NOTES, SILVERBULLET } from '../fixtures/paths.js';
import { at } from '../support/must.js';

/** Every chunk's text must be found, verbatim, in the lines it cites. */
function expectChunksInTheirLines({ note, lines }: LoadedNote): void {
  for (const chunk of note.chunks) {
    expect(chunk.lineFrom).toBeGreaterThanOrEqual(1);
    expect(chunk.lineTo).toBeGreaterThanOrEqual(chunk.lineFrom);
    expect(chunk.lineTo).toBeLessThanOrEqual(lines.length);
    const cited = citedLines(lines, chunk.lineFrom, chunk.lineTo);
    expect(cited, `${note.relPath} chunk ${chunk.ord}`).toContain(chunk.text);
    // …and it starts on the first cited line and ends on the last one.
    expect(lines[chunk.lineFrom - 1]).toContain(chunk.text.split('\n')[0]);
    expect(lines[chunk.lineTo - 1]).toContain(chunk.text.split('\n').pop()!);
  }
}

async function fixture(name: string): Promise<{ note: ParsedNote; lines: string[] }> {
  const r = await readNote(path.join(FIXTURE_NOTES, name));
  if (!r.ok) throw new Error(`${name}: ${r.detail}`);
  return { note: parseNote(name, r.content), lines: r.content.split('\n') };
}

describe('parseNote on the fixture notes', () => {
  let all: LoadedNote[];
  beforeAll(async () => {
    all = await loadFolder(FIXTURE_NOTES);
  });

  it('gives every chunk the exact line range of its text', () => {
    expect(all.length).toBeGreaterThanOrEqual(9);
    for (const loaded of all) expectChunksInTheirLines(loaded);
  });

  it('numbers chunks in order and never overlaps them', () => {
    for (const { note } of all) {
      note.chunks.forEach((c, i) => {
        expect(c.ord).toBe(i);
        if (i > 0) expect(c.lineFrom).toBeGreaterThanOrEqual(at(note.chunks, i - 1).lineTo);
      });
    }
  });

  it('ignores malformed front matter and keeps the body', async () => {
    const { note } = await fixture('malformed-front-matter.md');
    expect(note.frontMatter).toEqual({});
    expect(note.title).toBe('Recovered Title');
    expect(note.chunks).toHaveLength(1);
    expect(at(note.chunks, 0).text).toMatch(/^The front matter above is not valid YAML/);
    expect(at(note.chunks, 0).lineFrom).toBe(7);
  });

  it('builds heading paths from nested headings, without the title heading', async () => {
    const { note } = await fixture('nested-headings.md');
    expect(note.title).toBe('Garden Journal');
    const paths = note.chunks.map((c) => c.headingPath.join(' > '));
    expect(paths).toEqual([
      '',
      'Vegetables',
      'Vegetables > Tomatoes',
      'Vegetables > Beans',
      'Vegetables > Beans > Pests',
      'Flowers',
      'Vegetables',
    ]);
    // The two "Vegetables" sections are separate chunks.
    expect(at(note.chunks, 1).lineFrom).not.toBe(at(note.chunks, 6).lineFrom);
  });

  it('keeps CRLF notes on the line numbers an editor shows', async () => {
    const raw = (await readFile(path.join(FIXTURE_NOTES, 'crlf-endings.md'), 'utf8')).split('\r\n');
    const { note } = await fixture('crlf-endings.md');
    const second = note.chunks.find((c) => c.headingPath[0] === 'Second Part')!;
    expect(raw[second.lineFrom - 1]).toBe(second.text);
    expect(at(note.chunks, 0).lineFrom).toBe(3);
    expect(at(note.chunks, 0).lineTo).toBe(4);
  });

  it('makes fenced and indented code their own chunks, and finds no links or tags inside code', async () => {
    const { note, lines } = await fixture('code-blocks.md');
    const code = note.chunks.filter((c) => c.isCode);
    expect(code).toHaveLength(3);
    expect(lines[at(code, 0).lineFrom - 1]).toBe('```bash');
    expect(lines[at(code, 0).lineTo - 1]).toBe('```');
    expect(note.links.map((l) => l.target)).toEqual(['Real Link']);
    expect(note.tags).toEqual(['realtag']);
    expect(note.chunks.filter((c) => !c.isCode).some((c) => c.text.includes('`ls -la`'))).toBe(true);
  });

  it('collects wikilinks (plain, alias, heading, embed) and local Markdown links with their lines', async () => {
    const { note, lines } = await fixture('wikilinks.md');
    expect(note.links.map((l) => l.target)).toEqual([
      'Plain Target',
      'Aliased Target',
      'Heading Target',
      'Both Target',
      'sub/other-note.md',
      'Embedded Note',
    ]);
    for (const link of note.links) {
      const name = link.target.endsWith('.md') ? link.target : link.target.split(' ')[0];
      expect(lines[link.line - 1]).toContain(name);
    }
    expect(note.tags).toEqual(['links', 'testing', 'inline-tag']);
    expect(note.frontMatter).toEqual({ tags: ['links', 'testing'] });
  });

  it('resolves a relative Markdown link from the note folder', () => {
    const note = parseNote('a/b/note.md', 'See [up](../c/d.md), [abs](/top.md), [out](../../../x.md), [pdf](x.pdf).');
    expect(note.links.map((l) => l.target)).toEqual(['a/c/d.md', 'top.md']);
  });

  it('lets a heading without text close deeper sections without adding an empty route', () => {
    const note = parseNote('x.md', '# T\n\n## A\n\n### B\n\nunder b\n\n## ![](pic.png)\n\nunder the image heading\n');
    expect(note.chunks.map((c) => c.headingPath)).toEqual([['A', 'B'], []]);
  });

  it('falls back to the file name for the title', async () => {
    const { note } = await fixture('no-title.md');
    expect(note.title).toBe('no-title');
    expect(at(note.chunks, 1).headingPath).toEqual(['A section without a top heading']);
  });

  it('prefers a front-matter title over the first heading', () => {
    const note = parseNote('x.md', '---\ntitle: From Front Matter\n---\n# Heading One\n\nBody.\n');
    expect(note.title).toBe('From Front Matter');
    expect(at(note.chunks, 0).headingPath).toEqual(['Heading One']);
  });

  it('splits plain text into paragraphs at blank lines', async () => {
    const { note, lines } = await fixture('plain.txt');
    expect(note.title).toBe('plain');
    expect(note.links).toEqual([{ target: 'Link Styles', line: 4 }]);
    expect(note.tags).toEqual(['plaintag']);
    expectChunksInTheirLines({ note, lines });
    // Short paragraphs share a chunk, but the chunk starts and ends on text.
    expect(at(note.chunks, 0).lineFrom).toBe(1);
    expect(at(note.chunks, -1).lineTo).toBe(7);
  });

  it('splits a section longer than the limit at list items', async () => {
    const { note, lines } = await fixture('long-section.md');
    expect(note.chunks.length).toBeGreaterThan(2);
    for (const c of note.chunks) {
      expect(c.text.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
      expect(c.headingPath).toEqual(['Reading list']);
      expect(lines[c.lineFrom - 1]).toMatch(/^- Book number \d+/);
    }
    const covered = note.chunks.flatMap((c) => lines.slice(c.lineFrom - 1, c.lineTo));
    expect(covered.filter((l) => l.startsWith('- Book number'))).toHaveLength(40);
  });

  it('splits one enormous line at spaces, each piece still on that line', () => {
    const words = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');
    const note = parseNote('one-line.md', `# T\n\n${words}\n`);
    expect(note.chunks.length).toBeGreaterThan(3);
    for (const c of note.chunks) {
      expect(c.lineFrom).toBe(3);
      expect(c.lineTo).toBe(3);
      expect(words).toContain(c.text);
    }
  });
});

describe('parseNote on real notes folders', () => {
  for (const [name, root] of [
    ['SilverBullet docs', SILVERBULLET],
    ['Foam docs', FOAM],
    ['the bundled sample notes', SAMPLE_NOTES],
  ] as const) {
    it(`parses ${name} with exact chunk lines, titles and links`, async () => {
      if (!available(root)) return;
      const all = await loadFolder(root);
      expect(all.length).toBeGreaterThan(10);
      let chunks = 0;
      let links = 0;
      for (const loaded of all) {
        expect(loaded.note.title.length).toBeGreaterThan(0);
        expectChunksInTheirLines(loaded);
        chunks += loaded.note.chunks.length;
        links += loaded.note.links.length;
      }
      expect(chunks).toBeGreaterThan(all.length);
      expect(links).toBeGreaterThan(10);
    });
  }
});
