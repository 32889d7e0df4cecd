import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { openDb } from '../../main/engine/store/db.js';
import { getSetting, INDEX_GENERATION } from '../../main/engine/store/settings.js';

// `loci ask` runs once and exits. What it derives from the whole index (the walk's graph, the Chinese
// bigram counts) it keeps in the index file, and the next `loci ask` reads it back — while the index is
// the generation it was derived from. Each step is a real CLI process over a real index.
const REPO = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loci-ask-snapshots-'));
const notes = join(dir, 'notes');
const db = join(dir, 'x.db');
cpSync(join(REPO, 'resources/sample-notes'), notes, { recursive: true });
const loci = (...args: string[]) => execFileSync('node', ['bin/loci.mjs', ...args], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const askJson = (question: string) => {
  const { citations, contexts, text } = JSON.parse(loci('ask', question, '--db', db, '--json'));
  return { citations, contexts, text };
};
const kept = () => {
  const d = openDb(db, { readonly: true });
  try {
    const generation = getSetting(d, INDEX_GENERATION, 0);
    const rows = d.prepare('SELECT key, fingerprint FROM derived_snapshots ORDER BY key').all() as { key: string; fingerprint: string }[];
    return { generation, rows };
  } finally {
    d.close();
  }
};
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loci ask, run again', () => {
  const question = 'Where was the founder of Kestrel Coffee Works born?';

  it('keeps what it derived for the index as it is, and answers the same from it the next time', () => {
    loci('index', notes, '--db', db);
    expect(kept().rows).toEqual([]);
    const first = askJson(question);
    const { generation, rows } = kept();
    expect(rows.map((r) => r.key)).toContain('ppr:graph');
    for (const r of rows) expect(r.fingerprint.startsWith(`${generation}:`), r.fingerprint).toBe(true);
    expect(askJson(question)).toEqual(first);
  }, 120_000);

  it('answers from the edited notes after an index run, not from what the last ask kept', () => {
    const before = kept();
    // A new bridge: the question's roaster now names a second founder, whose own note holds a birthplace.
    appendFileSync(join(notes, 'roasters/Kestrel Coffee Works.md'), '\nIts co-founder is Ilse Varhaug.\n');
    appendFileSync(join(notes, 'people/Ilse Varhaug.md'), '# Ilse Varhaug\n\nIlse Varhaug was born in Hammerfest and roasts at Kestrel Coffee Works.\n');
    loci('index', notes, '--db', db);
    expect(kept().generation).toBeGreaterThan(before.generation);
    const after = askJson(question);
    expect(after.contexts.some((c: { docPath: string }) => c.docPath === 'people/Ilse Varhaug.md')).toBe(true);
    const now = kept();
    for (const r of now.rows) expect(r.fingerprint.startsWith(`${now.generation}:`), r.fingerprint).toBe(true);
  }, 120_000);

  it('still answers from an index it cannot write, and keeps nothing there', async () => {
    // Root writes a read-only file anyway, so the engine is opened read-only as it is for such a file.
    const d = openDb(db);
    d.prepare('DELETE FROM derived_snapshots').run();
    d.close();
    const engine = await LociEngine.open({ dbPath: db, readOnly: true, oneOff: true });
    try {
      const answer = await engine.answers.ask(question, { k: 8 });
      expect(answer.citations.length).toBeGreaterThan(0);
    } finally {
      await engine.close();
    }
    expect(kept().rows).toEqual([]);
  }, 120_000);
});
