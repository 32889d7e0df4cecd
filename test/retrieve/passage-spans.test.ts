import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passageSpans, spanContexts } from '../../main/engine/retrieve/passage-spans.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// A guide whose "Links" section the chunker cuts where code meets prose: the lead-in, the JSON block,
// the list of values, then a subsection, then another section.
const GUIDE = [
  '# Guide',
  '',
  'The guide explains how notes link to each other and how the editor writes those links.',
  '',
  '## Links',
  '',
  'Configure it in your settings:',
  '',
  '```json',
  '{ "guide.links": "withExtensions" }',
  '```',
  '',
  'Options: off, withoutExtensions, withExtensions.',
  '',
  '### Links in folders',
  '',
  'Links to notes in folders follow the same setting.',
  '',
  '## Backups',
  '',
  'Copy the notes folder somewhere safe every night.',
  '',
].join('\n');

describe('the span a passage is shown in', () => {
  let notes: IndexedNotes | undefined;
  let ids: Record<string, number> = {};
  beforeAll(async () => {
    notes = await indexNotes('loci-passage-spans-', { 'guide.md': GUIDE });
    const rows = notes.db.prepare('SELECT id, text FROM chunks ORDER BY ord').all() as { id: number; text: string }[];
    const find = (part: string) => rows.find((r) => r.text.includes(part))!.id;
    ids = {
      opening: find('The guide explains'),
      leadIn: find('Configure it'),
      json: find('"guide.links"'),
      options: find('Options:'),
      folders: find('Links to notes in folders'),
      backups: find('Copy the notes'),
    };
    expect(new Set(Object.values(ids)).size).toBe(6);
  }, 60_000);
  afterAll(() => notes?.close());

  it("takes in the rest of the passage's section and its subsections, not the next section", () => {
    const spans = passageSpans(notes!.db, [ids.leadIn!, ids.folders!, ids.backups!]);
    expect(spans.get(ids.leadIn!)).toEqual([ids.leadIn, ids.json, ids.options, ids.folders]);
    // A subsection's span does not climb to its parent section.
    expect(spans.get(ids.folders!)).toEqual([ids.folders]);
    expect(spans.get(ids.backups!)).toEqual([ids.backups]);
  });

  it("does not take in the whole note from the note's opening", () => {
    expect(passageSpans(notes!.db, [ids.opening!]).get(ids.opening!)).toEqual([ids.opening]);
  });

  it('stays within the size limit, growing after the passage first, then before it', () => {
    const chars = new Map((notes!.db.prepare('SELECT id, length(text) AS n FROM chunks').all() as { id: number; n: number }[]).map((r) => [r.id, r.n]));
    const size = (...xs: number[]) => xs.reduce((a, x) => a + chars.get(x)!, 0);
    // Room for the JSON block and one neighbour: the one after it (the values), not the lead-in before it.
    expect(passageSpans(notes!.db, [ids.json!], size(ids.json!, ids.options!)).get(ids.json!)).toEqual([ids.json, ids.options]);
    // With room for the whole section the span reaches back to the lead-in.
    expect(passageSpans(notes!.db, [ids.options!], size(ids.leadIn!, ids.json!, ids.options!, ids.folders!)).get(ids.options!)).toEqual([ids.leadIn, ids.json, ids.options, ids.folders]);
    expect(passageSpans(notes!.db, [ids.options!], size(ids.options!) - 1).get(ids.options!)).toEqual([ids.options]);
  });

  it("shows the span's text and lines under the heading it opens with, keeping the passage found", () => {
    const spans = passageSpans(notes!.db, [ids.json!]);
    const [ctx] = spanContexts(notes!.db, [{ id: ids.json!, score: 1 }], spans);
    expect(ctx!.chunkId).toBe(ids.json);
    expect(ctx!.factPath).toBe('Guide › Links');
    expect(ctx!.text).toContain('Configure it in your settings:');
    expect(ctx!.text).toContain('Links to notes in folders');
    expect(ctx!.text).not.toContain('Copy the notes');
    const lines = GUIDE.split('\n');
    expect(lines[ctx!.lineFrom - 1]).toBe('Configure it in your settings:');
    expect(lines[ctx!.lineTo - 1]).toBe('Links to notes in folders follow the same setting.');
  });
});
