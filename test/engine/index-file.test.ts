// Issue 9 probes 3, 5 and 6 on real SQLite files: an embedder that fails cannot brick an index,
// another application's database is refused untouched, a read-only index can still be read.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LociEngine, ReadOnlyIndexError } from '../../main/engine/engine.js';
import { setSetting } from '../../main/engine/store/settings.js';

let dir: string;
let notes: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-indexfile-'));
  notes = join(dir, 'notes');
  await mkdir(notes);
  await writeFile(join(notes, 'kiln.md'), '# Kiln\n\n## Firing\n\nThe kiln reaches cone six after nine hours of firing.\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('probe 3: an embedder that fails cannot brick the index', () => {
  it('refuses a bogus embedder before storing it; the index keeps working and reopens', async () => {
    const db = join(dir, 'index.db');
    const engine = await LociEngine.open({ dbPath: db });
    try {
      await engine.library.index(notes);
      await expect(engine.settings.update({ embedder: 'bogus' })).rejects.toThrow(/could not be loaded, so the setting was not changed/);
      expect(engine.settings.get().embedder).toBe('glove');
      expect((await engine.answers.ask('cone six', { method: 'dense', k: 1 })).contexts.length).toBe(1);
    } finally {
      await engine.close();
    }
    const again = await LociEngine.open({ dbPath: db });
    await again.close();
  });

  it('opens an index whose stored embedder fails with the built-in one and a warning', async () => {
    const db = join(dir, 'index.db');
    const first = await LociEngine.open({ dbPath: db });
    await first.library.index(notes);
    // What an older Loci stored without checking.
    setSetting(first.db, 'embedder', 'transformers:/nowhere/model');
    await first.close();

    const engine = await LociEngine.open({ dbPath: db });
    try {
      expect(engine.events.warnings().join('\n')).toMatch(/embedder in Settings \('transformers:\/nowhere\/model'\) could not be loaded/);
      expect(engine.views.stats().embedder).toBe(engine.embedder.id);
      expect((await engine.answers.ask('cone six', { method: 'bm25', k: 1 })).contexts.length).toBe(1);
    } finally {
      await engine.close();
    }
    // Asked for explicitly (the --embedder flag), the failure is the caller's to hear.
    await expect(LociEngine.open({ dbPath: db, embedder: 'bogus' })).rejects.toThrow(/unknown embedder/);
  });
});

describe("probe 5: another application's SQLite database is refused untouched", () => {
  it('does not switch it to WAL or add tables', async () => {
    const file = join(dir, 'other-app.sqlite');
    const other = new Database(file);
    other.exec('CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO contacts (name) VALUES (\'Ada\');');
    other.close();
    const before = sha(file);
    await expect(LociEngine.open({ dbPath: file })).rejects.toThrow(/another application's SQLite database \(tables: contacts\), not a Loci index/);
    expect(sha(file)).toBe(before);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['contacts']);
    check.close();
  });

  it('still refuses a file that is not SQLite at all, and opens an empty file as a new index', async () => {
    await writeFile(join(dir, 'notes.txt'), 'just some text, long enough to not be a header '.repeat(20));
    await expect(LociEngine.open({ dbPath: join(dir, 'notes.txt') })).rejects.toThrow(/not a Loci index/);
    await writeFile(join(dir, 'empty.db'), '');
    const fresh = await LociEngine.open({ dbPath: join(dir, 'empty.db') });
    expect(fresh.views.stats().counts.documents).toBe(0);
    await fresh.close();
  });
});

/** Makes a file unwritable for this process: chmod for a normal user, the immutable flag for root. Null when neither works here. */
function makeReadOnly(file: string): (() => void) | null {
  if (process.getuid?.() !== 0) {
    chmodSync(file, 0o444);
    return () => chmodSync(file, 0o644);
  }
  try {
    execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
    return () => execFileSync('chattr', ['-i', file], { stdio: 'ignore' });
  } catch {
    return null;
  }
}

describe('probe 6: a read-only index can be read', () => {
  it('answers, lists and shows mind maps; says clearly that writing is not possible', async (ctx) => {
    const db = join(dir, 'index.db');
    const writer = await LociEngine.open({ dbPath: db });
    await writer.library.index(notes);
    await writer.close();
    const restore = makeReadOnly(db);
    if (!restore) {
      console.log('skipped: cannot make a file read-only here (root without chattr)');
      ctx.skip();
      return;
    }
    try {
      const engine = await LociEngine.open({ dbPath: db });
      try {
        expect(engine.readOnly).toBe(true);
        expect(engine.events.warnings().join('\n')).toMatch(/read-only/);
        expect(engine.views.stats().counts.documents).toBe(1);
        const answer = await engine.answers.ask('How long does the kiln fire?', { method: 'bm25', k: 2 });
        expect(answer.contexts[0]?.docPath).toBe('kiln.md');
        expect(answer.chatId).toBeUndefined();
        expect(engine.views.mindMap('kiln.md')).not.toBeNull();
        expect(engine.views.documents().map((d) => d.state)).toEqual(['fast']);
        await expect(engine.library.index(notes)).rejects.toThrow(ReadOnlyIndexError);
        await expect(engine.settings.update({ threads: 2 })).rejects.toThrow(/read-only/);
      } finally {
        await engine.close();
      }
    } finally {
      restore();
    }
  });
});
