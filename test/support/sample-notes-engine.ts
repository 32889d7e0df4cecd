import { afterAll, beforeAll } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { SAMPLE_NOTES } from '../fixtures/paths.js';

/**
 * An engine over the sample notes (fast mode, built-in embedder) in a temporary index: opened and indexed
 * before the calling suite's tests, closed and removed after them. Read `engine` inside the tests.
 */
export function sampleNotesEngine(prefix: string): { readonly engine: LociEngine } {
  let dir: string;
  let engine: LociEngine | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
    await engine.library.index(SAMPLE_NOTES);
  });
  afterAll(async () => {
    await engine?.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get engine() {
      if (!engine) throw new Error('the sample-notes engine is opened in beforeAll: read it inside a test');
      return engine;
    },
  };
}
