// A note's links resolved to notes, its backlinks and its tags, read from a real index of real files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { libraryTags, noteLinks } from '../../main/engine/graph/note-links.js';

let dir: string;
let engine: LociEngine;
const id = (relPath: string) => (engine.db.prepare('SELECT id FROM documents WHERE rel_path = ?').get(relPath) as { id: number }).id;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loci-note-links-'));
  const notes = join(dir, 'notes');
  mkdirSync(join(notes, 'sub'), { recursive: true });
  writeFileSync(
    join(notes, 'home.md'),
    '---\ntags: [start, Garden]\n---\n# Home\n\nSee [[Seeds|the seed list]] and [the shed](sub/shed.md).\n\nA link to [[Nowhere]]. #planning\n\n```\n#notatag\n```\n',
  );
  writeFileSync(join(notes, 'seeds.md'), '# Seeds\n\nBack to [[Home]]. Also [[home]] again. #garden\n');
  writeFileSync(join(notes, 'sub', 'shed.md'), '# Shed\n\nTools. [[Home]]\n');
  writeFileSync(join(notes, 'other.md'), '# Other\n\nNo links here.\n');
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
  await engine.library.index(notes);
}, 120_000);
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('noteLinks', () => {
  it('resolves wikilinks (alias and all) and Markdown links to the notes they lead to; a missing one to null', () => {
    const links = noteLinks(engine.db, id('home.md'))!.links;
    expect(links.map((l) => [l.target, l.note?.docPath ?? null])).toEqual([
      ['Seeds', 'seeds.md'],
      ['sub/shed.md', 'sub/shed.md'],
      ['Nowhere', null],
    ]);
    expect(links[0]!.line).toBe(6);
  });

  it('lists each linking note once, with its first line and how many links lead here', () => {
    const back = noteLinks(engine.db, id('home.md'))!.backlinks;
    expect(back.map((b) => [b.docPath, b.line, b.count])).toEqual([
      ['seeds.md', 3, 2],
      ['sub/shed.md', 3, 1],
    ]);
    expect(noteLinks(engine.db, id('other.md'))!.backlinks).toEqual([]);
  });

  it('gives front-matter tags and #tags of the prose, not of code, one spelling per tag', () => {
    expect(noteLinks(engine.db, id('home.md'))!.tags).toEqual(['start', 'Garden', 'planning']);
    const all = new Map(libraryTags(engine.db).map((t) => [t.docId, t.tags]));
    expect(all.get(id('seeds.md'))).toEqual(['garden']);
    expect(all.has(id('other.md'))).toBe(false);
  });

  it('is null for a note the index does not hold', () => {
    expect(noteLinks(engine.db, 999_999)).toBeNull();
  });
});
