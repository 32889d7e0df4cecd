import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { embeddingsServer, expectVectorsOfCurrentText } from '../support/embeddings-server.js';
import { rowsMissingEmbeddings, type OwnerKind } from '../../main/engine/store/embeddings.js';

const KINDS: OwnerKind[] = ['doc', 'chunk', 'fci', 'entity', 'mm'];

const samples = resolve(import.meta.dirname, '../../resources/sample-notes');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-edited-vectors-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('vectors of an edited note', () => {
  it('are of its new text with an embedder outside the indexing workers (an embeddings server)', async () => {
    const notes = join(dir, 'notes');
    cpSync(samples, notes, { recursive: true });
    const server = await embeddingsServer();
    const engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), embedder: server.spec });
    try {
      await engine.library.index(notes);
      await expectVectorsOfCurrentText(engine);
      // The note's own vector (its title and passages) is of its text as edited, not as first indexed.
      appendFileSync(join(notes, 'people', 'Mara Lindqvist.md'), '\nShe kept bees on the roof of the roastery for three summers.\n');
      const report = await engine.library.index(notes);
      expect(report.changed).toBe(1);
      await expectVectorsOfCurrentText(engine);
    } finally {
      await engine.close();
      await server.close();
    }
  });

  it('are kept for the texts a rewrite leaves as they were: only new texts go to the embedder', async () => {
    const notes = join(dir, 'kept');
    cpSync(samples, notes, { recursive: true });
    const server = await embeddingsServer();
    const engine = await LociEngine.open({ dbPath: join(dir, 'kept.db'), embedder: server.spec });
    const texts = () => new Set(KINDS.flatMap((kind) => rowsMissingEmbeddings(engine.db, kind, 'no such model').map(([, t]) => t)));
    try {
      await engine.library.index(notes);
      const firstRun = server.texts.length;
      const before = texts();
      // An edit: the note's vector and the passage and facts the new line joins are new texts; the rest are not.
      server.texts.length = 0;
      appendFileSync(join(notes, 'people', 'Mara Lindqvist.md'), '\nShe kept bees on the roof of the roastery for three summers.\n');
      expect((await engine.library.index(notes)).changed).toBe(1);
      expect(server.texts.length).toBeGreaterThan(0);
      expect(server.texts.filter((t) => before.has(t))).toEqual([]);
      await expectVectorsOfCurrentText(engine);
      // A new version of fast extraction rewrites every note's rows: the same texts keep their vectors.
      server.texts.length = 0;
      engine.db.prepare("DELETE FROM settings WHERE key = 'fast_pipeline'").run();
      const again = await engine.library.index(notes);
      expect(again.changed).toBeGreaterThan(1);
      expect(server.texts).toEqual([]);
      await expectVectorsOfCurrentText(engine);
      expect(firstRun).toBeGreaterThan(20);
    } finally {
      await engine.close();
      await server.close();
    }
  });
});
