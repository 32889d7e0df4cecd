import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { LATEST_SCHEMA, type Db } from '../../main/engine/store/db.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { IndexCache } from '../../main/engine/retrieve/index-cache.js';
import { retrieve } from '../../main/engine/retrieve/index.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// Migration 5: BM25 matches English words by their stem, and the chunks' FTS rows still go with their chunks.
describe('stemmed BM25 over chunks', () => {
  let notes: IndexedNotes | undefined;
  let dir: string;
  let db: Db;
  let embedder: Embedder;
  beforeAll(async () => {
    notes = await indexNotes('loci-stemmed-', {
      'Export.md': '# Export\n\nYou can export a page to a single HTML file from the page menu.\n',
      'Share.md': '# Share\n\nShare a page by copying its public link.\n',
      '技术.md': '# 技术\n\n郧西县上线了水权交易平台。\n',
    });
    ({ dir, db } = notes);
    embedder = notes.ctx.embedder;
  }, 60_000);
  afterAll(() => notes?.close());

  it('finds “export” for a question about exporting, and leaves Chinese words as they are', async () => {
    expect(LATEST_SCHEMA).toBeGreaterThanOrEqual(5);
    const ctx = { db, embedder, cache: new IndexCache(db, embedder) };
    const en = await retrieve(ctx, 'how does exporting work?', 'bm25', 3);
    expect(en.contexts[0]?.docTitle).toBe('Export');
    const zh = await retrieve(ctx, '郧西县', 'bm25', 3);
    expect(zh.contexts.map((c) => c.docTitle)).toEqual(['技术']);
  });

  it('drops a removed note’s rows from the full-text index', async () => {
    const ftsRows = () => db.prepare('SELECT count(*) FROM chunks_fts').pluck().get() as number;
    const chunks = () => db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    expect(ftsRows()).toBe(chunks());
    unlinkSync(join(dir, 'Share.md'));
    await indexFolder(db, embedder, dir);
    expect(ftsRows()).toBe(chunks());
    const ctx = { db, embedder, cache: new IndexCache(db, embedder) };
    const r = await retrieve(ctx, 'share link', 'bm25', 3);
    expect(r.contexts.map((c) => c.docTitle)).not.toContain('Share');
  });
});
