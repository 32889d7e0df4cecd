// `loci check [--repair]` on real indexes damaged the ways the issue saw (every note's rows twice) and
// others (full-text rows without their passage, missing vectors, rows of notes that are gone), through
// the real CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { writeGeneratedNotes } from '../support/generated-notes.js';

const exec = promisify(execFile);
const LOCI = resolve(import.meta.dirname, '../../bin/loci.mjs');
let dir: string;
let notes: string;
let clean: string;

interface CheckJson {
  ok: boolean;
  findings: { check: string; ok: boolean; message: string; repaired?: string }[];
  notes: string[];
  reindex: number;
  rebuilt?: { movedTo: string; folders: string[] };
}

async function loci(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [LOCI, ...args], { maxBuffer: 1 << 26 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

async function check(db: string, ...more: string[]): Promise<{ code: number; report: CheckJson }> {
  const r = await loci('check', '--db', db, '--json', ...more);
  return { code: r.code, report: JSON.parse(r.stdout) as CheckJson };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-check-'));
  notes = join(dir, 'notes');
  await writeGeneratedNotes(notes, 60);
  clean = join(dir, 'clean.db');
  const r = await loci('index', notes, '--db', clean, '--json');
  expect(r.code).toBe(0);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('loci check', () => {
  it('passes a clean index (exit 0)', async () => {
    const { code, report } = await check(clean);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.findings.map((f) => f.check)).toEqual(['schema', 'sqlite', 'foreign-keys', 'full-text', 'orphans', 'one-run-per-note', 'vectors']);
  });

  it('finds every note written twice, stray full-text rows, missing vectors and orphan rows; --repair mends them and the next index run equals a fresh index', async () => {
    const db = join(dir, 'damaged.db');
    await copyFile(clean, db);
    const raw = new Database(db);
    raw.pragma('foreign_keys = OFF');
    const docs = raw.prepare("SELECT id FROM documents WHERE status = 'indexed' ORDER BY id LIMIT 5").pluck().all() as number[];
    // What two indexers at once left: each note's passages and facts written a second time by the other run.
    for (const d of docs) {
      const chunks = raw.prepare('SELECT id, ord, heading_path, text, line_from, line_to, is_code FROM chunks WHERE document_id = ?').all(d) as Record<string, unknown>[];
      for (const c of chunks) {
        const { id } = raw.prepare('INSERT INTO chunks (document_id, ord, heading_path, text, line_from, line_to, is_code) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id').get(d, c.ord, c.heading_path, c.text, c.line_from, c.line_to, c.is_code) as { id: number };
        raw.prepare('INSERT INTO fcis (document_id, chunk_id, text, line_from, line_to, extractor) SELECT document_id, ?, text, line_from, line_to, extractor FROM fcis WHERE chunk_id = ?').run(id, c.id);
      }
    }
    raw.prepare("INSERT INTO chunks_fts (rowid, seg) VALUES (987654, 'ghost passage')").run();
    const other = raw.prepare("SELECT id FROM documents WHERE status = 'indexed' ORDER BY id DESC LIMIT 1").pluck().get() as number;
    raw.prepare("DELETE FROM embeddings WHERE owner_kind = 'fci' AND owner_id IN (SELECT id FROM fcis WHERE document_id = ?)").run(other);
    raw.prepare("INSERT INTO fcis (document_id, chunk_id, text, line_from, line_to, extractor) VALUES (99999, NULL, 'a fact of no note', 1, 1, 'fast')").run();
    raw.close();

    const found = await check(db);
    expect(found.code).toBe(1);
    const failing = Object.fromEntries(found.report.findings.filter((f) => !f.ok).map((f) => [f.check, f.message]));
    expect(Object.keys(failing).sort()).toEqual(['foreign-keys', 'full-text', 'one-run-per-note', 'orphans', 'vectors']);
    expect(failing['one-run-per-note']).toMatch(/^5 notes hold rows of more than one run/);
    expect(failing['full-text']).toMatch(/without a full-text row.*1 full-text rows of chunks that are gone/);

    const repaired = await check(db, '--repair');
    expect(repaired.code).toBe(0);
    expect(repaired.report.ok).toBe(true);
    expect(repaired.report.findings.filter((f) => f.repaired).map((f) => f.check).sort()).toEqual(['foreign-keys', 'full-text', 'one-run-per-note', 'orphans', 'vectors']);
    expect(repaired.report.reindex).toBe(5);

    const rerun = await loci('index', notes, '--db', db, '--json');
    expect(rerun.code).toBe(0);
    const report = JSON.parse(rerun.stdout) as { changed: number; counts: Record<string, number> };
    expect(report.changed).toBe(5);
    const fresh = JSON.parse((await loci('index', notes, '--db', join(dir, 'fresh.db'), '--json')).stdout) as { counts: Record<string, number> };
    expect(report.counts).toEqual(fresh.counts);
    const after = await check(db);
    expect(after.report.ok).toBe(true);
    expect(after.report.notes).toEqual([]);
  });

  it('finds a full-text index whose contents disagree with its own index (FTS5 checksum) and rebuilds it', async () => {
    const db = join(dir, 'fts.db');
    await copyFile(clean, db);
    const raw = new Database(db);
    raw.unsafeMode(true);
    raw.pragma('writable_schema = ON');
    raw.prepare("UPDATE chunks_fts_content SET c0 = 'words the index never saw' WHERE id = (SELECT min(id) FROM chunks_fts_content)").run();
    raw.close();
    const found = await check(db);
    expect(found.code).toBe(1);
    expect(found.report.findings.find((f) => f.check === 'sqlite')?.message).toMatch(/FTS5 table main.chunks_fts|fts5: checksum mismatch for table "chunks_fts"/);
    const repaired = await check(db, '--repair');
    expect(repaired.code).toBe(0);
    expect(repaired.report.findings.find((f) => f.check === 'full-text')?.repaired).toMatch(/rebuilt chunks_fts/);
    expect(repaired.report.rebuilt).toBeUndefined();
  });

  it('rebuilds an index no migration can bring up to date, keeping settings, folders and conversations, and indexes its folders again', async () => {
    const db = join(dir, 'old.db');
    await copyFile(clean, db);
    const raw = new Database(db);
    // An index of an earlier build: no migration names, and a table no build of Loci made.
    raw.exec("DROP TABLE schema_migrations; CREATE TABLE mystery (x); INSERT INTO chats (title, created_at) VALUES ('kept chat', datetime('now'))");
    raw.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('docNeighbours', '7')").run();
    raw.close();
    const refused = await loci('stats', '--db', db);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/loci check --repair/);

    const plain = await check(db);
    expect(plain.code).toBe(1);
    expect(plain.report.findings.filter((f) => !f.ok)).toEqual([expect.objectContaining({ check: 'schema', message: expect.stringMatching(/an unknown table mystery/) })]);

    const repaired = await check(db, '--repair');
    expect(repaired.code).toBe(0);
    expect(repaired.report.rebuilt?.folders).toEqual([notes]);
    expect(existsSync(repaired.report.rebuilt!.movedTo)).toBe(true);
    const fresh = new Database(db, { readonly: true });
    expect(fresh.prepare("SELECT count(*) FROM chats WHERE title = 'kept chat'").pluck().get()).toBe(1);
    expect(fresh.prepare("SELECT value FROM settings WHERE key = 'docNeighbours'").pluck().get()).toBe('7');
    expect(fresh.prepare("SELECT count(*) FROM documents WHERE status = 'indexed'").pluck().get()).toBe(60);
    expect(fresh.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'mystery'").pluck().get()).toBe(0);
    fresh.close();
    expect((await check(db)).report.ok).toBe(true);
    expect(readdirSync(dir).some((f) => f.startsWith('old.db.damaged-'))).toBe(true);
  });
});
