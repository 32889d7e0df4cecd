import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { embeddingsServer, expectVectorsOfCurrentText } from '../support/embeddings-server.js';

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
      await engine.index(notes);
      await expectVectorsOfCurrentText(engine);
      // The note's own vector (its title and passages) is of its text as edited, not as first indexed.
      appendFileSync(join(notes, 'people', 'Mara Lindqvist.md'), '\nShe kept bees on the roof of the roastery for three summers.\n');
      const report = await engine.index(notes);
      expect(report.changed).toBe(1);
      await expectVectorsOfCurrentText(engine);
    } finally {
      await engine.close();
      await server.close();
    }
  });
});
