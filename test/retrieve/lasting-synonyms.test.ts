import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VectorMatrix } from '../../main/engine/embed/vector-matrix.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { IndexCache } from '../../main/engine/retrieve/index-cache.js';
import { entityGraph } from '../../main/engine/retrieve/ppr.js';
import { openDb } from '../../main/engine/store/db.js';
import { INDEX_GENERATION, setSetting } from '../../main/engine/store/settings.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// The walk's graph is built anew after every index change, but its synonym pairs (LSH over the entity
// vectors, about half the build at 10k news) are kept while the entity vectors stay the same.
const NOTES = {
  'Kestrel.md': '# Kestrel Coffee Works\n\nKestrel Coffee Works is a roaster in Gothenburg. Mara Lindqvist founded Kestrel Coffee Works.\n',
  'Mara.md': '# Mara Lindqvist\n\nMara Lindqvist was born in Tromsø. Mara Lindqvist roasts beans from Ethiopia.\n',
};

describe('a value that outlasts index changes', () => {
  it('is built once while its fingerprint stays, whatever the index generation', async () => {
    const db = openDb(':memory:');
    try {
      const cache = new IndexCache(db, await createStaticEmbedder());
      let builds = 0;
      const value = (fingerprint: string) => cache.lasting('k', fingerprint, () => ++builds);
      expect(value('a')).toBe(1);
      setSetting(db, INDEX_GENERATION, 7);
      expect(cache.built().derived).toEqual([]);
      expect(value('a')).toBe(1);
      expect(value('b')).toBe(2);
      expect(builds).toBe(2);
    } finally {
      db.close();
    }
  });

  it('knows the same rows by their hash, and different ids or vectors apart', () => {
    const rows = (id2: number, v2: number[]) => new VectorMatrix(2, [{ id: 1, vector: Float32Array.of(0.6, 0.8) }, { id: id2, vector: Float32Array.from(v2) }]);
    expect(rows(2, [1, 0]).contentHash()).toBe(rows(2, [1, 0]).contentHash());
    expect(rows(2, [0, 1]).contentHash()).not.toBe(rows(2, [1, 0]).contentHash());
    expect(rows(3, [1, 0]).contentHash()).not.toBe(rows(2, [1, 0]).contentHash());
  });
});

describe('the synonym pairs of the walk’s graph', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-lasting-', NOTES);
  }, 60_000);
  afterAll(() => notes?.close());

  it('outlast an edit that adds no entity, and are found again when one does', async () => {
    const { ctx, dir } = notes!;
    const first = entityGraph(ctx);
    const fingerprint = ctx.cache.built().lasting['ppr:synonyms'];
    expect(fingerprint).toBeDefined();

    appendFileSync(join(dir, 'Mara.md'), '\nShe likes it there.\n');
    await indexFolder(ctx.db, ctx.embedder, dir);
    const afterEdit = entityGraph(ctx);
    expect(afterEdit).not.toBe(first);
    expect(ctx.cache.built().lasting['ppr:synonyms']).toBe(fingerprint);
    expect(afterEdit.synonymEdges).toBe(first.synonymEdges);

    appendFileSync(join(dir, 'Mara.md'), '\nAnna Berghagen roasted beside her in Reykjavik.\n');
    await indexFolder(ctx.db, ctx.embedder, dir);
    entityGraph(ctx);
    expect(ctx.cache.built().lasting['ppr:synonyms']).not.toBe(fingerprint);
  });
});
