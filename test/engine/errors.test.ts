import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { openDb } from '../../main/engine/store/db.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-errors-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('clear errors', () => {
  it('names a missing folder, and a file given as the folder', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'a.db') });
    try {
      await expect(engine.library.index(join(dir, 'nope'))).rejects.toThrow(/^No folder at .*nope\.$/);
      await writeFile(join(dir, 'note.md'), '# A note\n');
      await expect(engine.library.index(join(dir, 'note.md'))).rejects.toThrow(/is a file; point Loci at the folder/);
      expect(engine.views.stats().counts.documents).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it('says the index is empty instead of "nothing matches"', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'b.db') });
    try {
      const a = await engine.answers.ask('what is in my notes?');
      expect(a.citations).toEqual([]);
      expect(a.text).toMatch(/The index is empty/);
    } finally {
      await engine.close();
    }
  });

  it('refuses a file that is not a Loci index, leaving it untouched', async () => {
    const file = join(dir, 'not-an-index.db');
    const text = 'these are not the bytes of a SQLite database, just a text file\n'.repeat(20);
    await writeFile(file, text);
    expect(() => openDb(file)).toThrow(/is not a Loci index/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
});
