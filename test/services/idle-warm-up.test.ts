import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';

// After the index changes, the engine asks a question of its own in idle time, so what retrieval builds
// for the whole index (vectors in memory, the entity–chunk–note graph, term statistics) is ready before a
// person asks. Real notes, a real index on disk, the engine as the app drives it.
const NOTES: Record<string, string> = {
  'Kestrel Coffee Works.md': '# Kestrel Coffee Works\n\nA small roastery on the harbour, founded in 2009 by Mara Lindqvist.\n',
  'Mara Lindqvist.md': '# Mara Lindqvist\n\nMara Lindqvist was born in Tromsø and trained as a chemist.\n',
  'Harbour Walk.md': "# Harbour Walk\n\nThe walk passes Kestrel Coffee Works' door and ends at the ferry.\n",
};

describe('retrieval warmed up after the index changes', () => {
  let dir: string;
  let engine: LociEngine;
  const cache = () => engine.retrievalContext.cache.built();

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loci-warm-up-'));
    for (const [name, text] of Object.entries(NOTES)) await writeFile(join(dir, name), text);
    engine = await LociEngine.open({ dbPath: join(dir, '.loci/index.db') });
  });
  afterEach(async () => {
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('builds the graph and loads the vectors a question reads, again after an edit', async () => {
    await engine.library.index(dir);
    expect(cache().derived).toEqual([]);
    await engine.warmUp.settled();
    const built = cache();
    expect(built.derived).toContain('ppr:graph');
    expect(built.derived).toContain('loci:titles');
    expect(built.matrices).toContain('chunk');
    // The answer reads the vectors of its notes' facts alone: every fact's, held in memory, cost a second
    // of loading after each edit at 10k news (and hundreds of MB with a 384-dimension model).
    expect(built.matrices).not.toContain('fci');

    // An edit changes the index: what was built is dropped, and built again once the index settles.
    await writeFile(join(dir, 'Harbour Walk.md'), '# Harbour Walk\n\nThe walk now ends at the lighthouse.\n');
    await engine.library.index(dir);
    expect(cache().derived).toEqual([]);
    await engine.warmUp.settled();
    expect(cache().derived).toContain('ppr:graph');
    const a = await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?');
    expect(a.citations.some((c) => c.docPath === 'Mara Lindqvist.md')).toBe(true);
  });

  it('waits while a fast pass writes the index, and warms up once it is done', async () => {
    await engine.library.index(dir);
    await writeFile(join(dir, 'Harbour Walk.md'), '# Harbour Walk\n\nThe walk now ends at the lighthouse.\n');
    const job = engine.library.startJob(dir);
    expect(job.phase).toBe('fast');
    // The warm-up the first run scheduled runs now, and finds a fast pass under way.
    await engine.warmUp.settled();
    expect(cache().derived).toEqual([]);
    await job.done;
    await engine.warmUp.settled();
    expect(cache().derived).toContain('ppr:graph');
  });

  it('answers at once after a restart from what the last run kept, then derives it with its per-note parts', async () => {
    await engine.library.index(dir);
    const question = 'Where was the founder of Kestrel Coffee Works born?';
    const first = await engine.answers.ask(question);
    await engine.close();
    // The next start: the index has not changed, so the first question reads the graph back.
    engine = await LociEngine.open({ dbPath: join(dir, '.loci/index.db') });
    const again = await engine.answers.ask(question);
    expect(cache().derived).toContain('ppr:graph');
    expect(cache().lasting).toEqual({});
    expect(again.citations).toEqual(first.citations);
    // Its warm-up derives the graph again, with what an edit's rebuild reuses.
    await engine.warmUp.settled();
    expect(cache().lasting['graph:title-scans']).toBeDefined();
    expect((await engine.answers.ask(question)).citations).toEqual(first.citations);
  });

  it('leaves the chats alone and closes cleanly with a warm-up waiting', async () => {
    await engine.library.index(dir);
    await engine.warmUp.settled();
    expect(engine.answers.chats()).toEqual([]);
    await writeFile(join(dir, 'Mara Lindqvist.md'), '# Mara Lindqvist\n\nShe was born in Tromsø.\n');
    await engine.library.index(dir);
    await expect(engine.close()).resolves.toBeUndefined();
    engine = await LociEngine.open({ dbPath: join(dir, '.loci/index.db') });
  });
});
