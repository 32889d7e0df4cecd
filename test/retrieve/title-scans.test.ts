import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntityGraph } from '../../main/engine/graph/walk/entity-graph.js';
import { NoteTitleScans, titleTrie, type MentionChunk, type TitleMentions } from '../../main/engine/graph/walk/title-mentions.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { entityGraph } from '../../main/engine/retrieve/ppr.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// The title-mention scan reads every chunk of the index; after an edit only the notes whose chunks changed
// are scanned again, and the mentions must be those a scan of every chunk finds.
const NOTES: Record<string, string> = {
  'Kestrel Coffee Works.md': '# Kestrel Coffee Works\n\nA small roastery on the harbour. It was founded in 2009 by Mara Lindqvist.\n',
  'Mara Lindqvist.md': '# Mara Lindqvist\n\nMara Lindqvist was born in Tromsø and trained as a chemist.\n',
  'Harbour Walk.md': "# Harbour Walk\n\nThe walk passes Kestrel Coffee Works' door and ends at the ferry.\n",
  'Plain.md': '# Plain\n\nNothing here names another note.\n',
};

/** The mentions as plain data, to compare two builds. */
const asData = (m: TitleMentions) => ({
  byDoc: [...m.byDoc].sort(([a], [b]) => a - b),
  noteFrequency: [...m.noteFrequency].sort(([a], [b]) => a.localeCompare(b)),
  notes: m.notes,
});

describe('title mentions kept per note across index changes', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-title-scans-', NOTES);
  }, 60_000);
  afterAll(() => notes?.close());

  /** The graph as retrieval builds it (scans kept) against one built with every chunk scanned. */
  const keptAndFull = async () => {
    const { ctx } = notes!;
    const kept = entityGraph(ctx);
    const full = buildEntityGraph(ctx.db, null);
    return { kept: asData(kept.titleMentions), full: asData(full.titleMentions) };
  };

  it('finds after an edit, a new note and a removed one what a full scan finds', async () => {
    const { ctx, dir } = notes!;
    let { kept, full } = await keptAndFull();
    expect(kept).toEqual(full);
    expect(kept.byDoc.length).toBe(2);

    // An edit that names another note.
    appendFileSync(join(dir, 'Plain.md'), '\nLater it names Harbour Walk after all.\n');
    await indexFolder(ctx.db, ctx.embedder, dir);
    ({ kept, full } = await keptAndFull());
    expect(kept).toEqual(full);
    expect(kept.byDoc.length).toBe(3);

    // A new title that notes already written hold ("the ferry" is now a note).
    writeFileSync(join(dir, 'The Ferry.md'), '# The Ferry\n\nIt crosses to the island twice a day.\n');
    await indexFolder(ctx.db, ctx.embedder, dir);
    ({ kept, full } = await keptAndFull());
    expect(kept).toEqual(full);
    expect(kept.noteFrequency.some(([key]) => key === 'the ferry')).toBe(true);

    rmSync(join(dir, 'Kestrel Coffee Works.md'));
    await indexFolder(ctx.db, ctx.embedder, dir);
    ({ kept, full } = await keptAndFull());
    expect(kept).toEqual(full);
  });
});

describe('the per-note scan cache', () => {
  const titles = [
    { id: 1, title: 'Kestrel Coffee Works' },
    { id: 2, title: 'Mara Lindqvist' },
  ];
  const chunks: MentionChunk[] = [
    { chunkId: 10, docId: 1, seg: 'founded by mara lindqvist', isCode: false },
    { chunkId: 20, docId: 2, seg: 'she roasts for kestrel coffee works', isCode: false },
  ];

  it('scans only the notes whose version changed, and every note when a title key comes or goes', () => {
    const asked: (number[] | 'all')[] = [];
    const chunksOf = (ids: number[] | 'all') => {
      asked.push(ids);
      return chunks.filter((c) => ids === 'all' || ids.includes(c.docId));
    };
    const scans = new NoteTitleScans();
    const trie = titleTrie(titles);
    const first = scans.hits(trie, [{ id: 1, version: 'a' }, { id: 2, version: 'b' }], chunksOf);
    expect(first.map(([id, hits]) => [id, hits.map((h) => h.key)])).toEqual([
      [1, ['mara lindqvist']],
      [2, ['kestrel coffee works']],
    ]);
    expect(scans.hits(trie, [{ id: 1, version: 'a' }, { id: 2, version: 'c' }], chunksOf)).toEqual(first);
    // A note with no version (its content unknown) is scanned every time.
    scans.hits(trie, [{ id: 1, version: null }, { id: 2, version: 'c' }], chunksOf);
    scans.hits(titleTrie([...titles, { id: 3, title: 'Harbour Walk' }]), [{ id: 1, version: 'a' }, { id: 2, version: 'c' }, { id: 3, version: 'd' }], chunksOf);
    expect(asked).toEqual(['all', [2], [1], 'all']);
  });
});
