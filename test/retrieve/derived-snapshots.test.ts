import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFolder } from '../../main/engine/index/run.js';
import { IndexCache, type SnapshotUse } from '../../main/engine/retrieve/index-cache.js';
import { entityGraph } from '../../main/engine/retrieve/ppr.js';
import { indexBigramStats } from '../../main/engine/retrieve/zh/han-bigrams.js';
import type { RetrievalContext } from '../../main/engine/retrieve/retriever.js';
import { indexNotes, type IndexedNotes } from '../support/indexed-notes.js';

// A process keeps what it derived from the whole index for the next one, which reads it back instead of
// deriving it again — only while the index is the generation it was derived from. Each "process" here is
// a fresh IndexCache over the same real index, as each `loci ask` (one-off) or app start (until-warm) makes.
const NOTES = {
  'Kestrel.md': '# Kestrel Coffee Works\n\nKestrel Coffee Works is a roaster in Gothenburg. Mara Lindqvist founded Kestrel Coffee Works.\n',
  'Mara.md': '# Mara Lindqvist\n\nMara Lindqvist was born in Tromsø. She roasts beans from Ethiopia.\n',
  '茶.md': '# 龙井茶\n\n龙井茶产于杭州西湖，是中国著名的绿茶。\n',
};

describe('snapshots of what retrieval derives from the index', () => {
  let notes: IndexedNotes | undefined;
  beforeAll(async () => {
    notes = await indexNotes('loci-snapshots-', NOTES);
  }, 60_000);
  afterAll(() => notes?.close());

  const newProcess = (use: SnapshotUse): RetrievalContext => ({ ...notes!.ctx, cache: new IndexCache(notes!.db, notes!.ctx.embedder, use) });
  const kept = () => notes!.db.prepare('SELECT key, fingerprint FROM derived_snapshots ORDER BY key').all() as { key: string; fingerprint: string }[];

  it('are neither read nor written when off (benchmarks, tools)', () => {
    const ctx = newProcess('off');
    entityGraph(ctx);
    indexBigramStats(ctx);
    ctx.cache.saveSnapshots();
    expect(kept()).toEqual([]);
  });

  it('are read back by the next one-off process, equal to what it would derive', () => {
    const first = newProcess('one-off');
    const built = { graph: entityGraph(first), bigrams: indexBigramStats(first) };
    // Built, so its per-note parts were made.
    expect(first.cache.built().lasting['graph:title-scans']).toBeDefined();
    first.cache.saveSnapshots();
    expect(kept().map((k) => k.key)).toEqual(['han-bigrams', 'ppr:graph']);

    const next = newProcess('one-off');
    const graph = entityGraph(next);
    const bigrams = indexBigramStats(next);
    // Read, not derived: nothing per note was made, and the values are those the first derived.
    expect(next.cache.built().lasting).toEqual({});
    expect(graph).not.toBe(built.graph);
    expect(graph).toEqual(built.graph);
    expect(bigrams).toEqual(built.bigrams);
    expect(bigrams.chunks).toBeGreaterThan(0);
  });

  it('are not read once the index has changed, and the new state is kept in their place', async () => {
    const before = kept();
    appendFileSync(join(notes!.dir, 'Mara.md'), '\nAnna Berghagen roasted beside her in Reykjavik, after a year at Kestrel Coffee Works.\n');
    await indexFolder(notes!.db, notes!.ctx.embedder, notes!.dir);
    const ctx = newProcess('one-off');
    const graph = entityGraph(ctx);
    expect(ctx.cache.built().lasting['graph:title-scans']).toBeDefined();
    // Derived from the edited index: the new name is in the graph.
    expect(graph.byName.has('anna berghagen')).toBe(true);
    ctx.cache.saveSnapshots();
    const after = kept().find((k) => k.key === 'ppr:graph')!;
    expect(after.fingerprint).not.toBe(before.find((k) => k.key === 'ppr:graph')!.fingerprint);
    expect(newProcess('one-off').cache.built().lasting).toEqual({});
    expect(entityGraph(newProcess('one-off')).byName.has('anna berghagen')).toBe(true);
  });

  it('are read by a process that goes on until its warm-up, which derives them with their per-note parts', async () => {
    const app = newProcess('until-warm');
    const read = entityGraph(app);
    expect(app.cache.built().lasting).toEqual({});
    app.cache.endSnapshotReads();
    const derived = entityGraph(app);
    expect(derived).not.toBe(read);
    expect(app.cache.built().lasting['graph:title-scans']).toBeDefined();
    expect({ ...derived, buildMs: 0 }).toEqual({ ...read, buildMs: 0 });
    // What it derived is what was kept already: not written again.
    const rowids = () => notes!.db.prepare('SELECT key, rowid AS row FROM derived_snapshots ORDER BY key').all();
    const rows = rowids();
    app.cache.saveSnapshots();
    expect(rowids()).toEqual(rows);

    // An edit it derives again (from its per-note parts) is what it keeps as it closes.
    appendFileSync(join(notes!.dir, 'Kestrel.md'), '\nIlse Varhaug roasts there on Sundays.\n');
    await indexFolder(notes!.db, notes!.ctx.embedder, notes!.dir);
    const before = kept();
    // Nothing derived since the edit: nothing to keep, and what was kept stays.
    app.cache.saveSnapshots();
    expect(kept()).toEqual(before);
    expect(entityGraph(app).byName.has('ilse varhaug')).toBe(true);
    app.cache.saveSnapshots();
    const next = newProcess('one-off');
    expect(entityGraph(next).byName.has('ilse varhaug')).toBe(true);
    expect(next.cache.built().lasting).toEqual({});
  });

  it('are derived again when what was kept cannot be read', () => {
    const expected = entityGraph(newProcess('off'));
    notes!.db.prepare("UPDATE derived_snapshots SET data = x'00ff13' WHERE key = 'ppr:graph'").run();
    const ctx = newProcess('one-off');
    expect({ ...entityGraph(ctx), buildMs: 0 }).toEqual({ ...expected, buildMs: 0 });
    expect(ctx.cache.built().lasting['graph:title-scans']).toBeDefined();
    // A read that fails outright costs the question nothing either.
    notes!.db.exec('ALTER TABLE derived_snapshots RENAME TO derived_snapshots_away');
    try {
      expect({ ...entityGraph(newProcess('one-off')), buildMs: 0 }).toEqual({ ...expected, buildMs: 0 });
    } finally {
      notes!.db.exec('ALTER TABLE derived_snapshots_away RENAME TO derived_snapshots');
    }
  });
});
