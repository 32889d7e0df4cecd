// The hot queries use indexes: plans of the SQL the engine really runs (traced over the sample notes:
// indexing, every retrieval method with its answer, mind maps, the graph, deleting a note), of the
// child-key lookups a delete cascade makes, and of the trigger bodies. Run
// `npx tsx scripts/explain-plans.ts` to read the plans themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runQueryWorkload, type WorkloadResult } from '../../main/engine/diagnostics/query-workload.js';
import { explain, foreignKeyLookups, planStatements, seeksOn, triggerStatements } from '../../main/engine/store/query-plans.js';
import { migrations } from '../../main/engine/store/migrations/index.js';
import { openDb } from '../../main/engine/store/db.js';
import { SAMPLE_NOTES } from '../fixtures/paths.js';

/**
 * Statements that read a whole table on purpose, once per indexing run or per index generation (cached
 * loads), never per question or per row: a single-table read with no id in its condition (no join, no
 * subquery, no number compared) cannot be served by an index anyway; the rest are listed by name.
 * Anything else that scans a big table fails the test.
 */
function isSingleTableLoad(sql: string): boolean {
  const m = /^SELECT .+? FROM \w+(?: WHERE (.+?))?(?: GROUP BY [\w, ]+)?(?: ORDER BY [\w, ]+?(?: DESC| ASC)?)?$/.exec(sql);
  if (!m || / JOIN |json_each|\(SELECT /i.test(sql)) return false;
  return !/[=<>]\s*-?\d/.test(m[1] ?? '');
}
const WHOLE_TABLE_READS: [RegExp, string][] = [
  [/^DELETE FROM entities WHERE NOT EXISTS/, 'orphan-entity sweep, once per run'],
  [/^SELECT \* FROM \(SELECT id, \w+ FROM \w+\) src WHERE NOT EXISTS \(SELECT 1 FROM embeddings/, 'embed what lacks a vector, once per run'],
  [/^DELETE FROM super_nodes$/, 'super-nodes rebuilt each run'],
  [/^UPDATE documents SET content_hash = NULL, mtime = NULL WHERE status = 'indexed' AND NOT EXISTS/, 'fast-mode notes re-extracted once, after an upgrade'],
  [/^UPDATE documents SET lang = '' WHERE status = 'indexed'$/, 'notes’ languages judged again once, when the detector changes'],
];
const deliberate = (sql: string) => isSingleTableLoad(sql) || WHOLE_TABLE_READS.some(([re]) => re.test(sql));

let work: WorkloadResult;
beforeAll(async () => {
  work = await runQueryWorkload(SAMPLE_NOTES, ['How long is the development time for the Guji roast?', 'Who runs Kestrel Coffee Works?']);
}, 120_000);
afterAll(() => work?.dispose());

describe('query plans', () => {
  it('no statement the engine runs scans a big table, except the listed whole-table reads', () => {
    const plans = planStatements(work.traced.db, work.traced.statements());
    expect(plans.length).toBeGreaterThan(40);
    const offenders = plans.filter((p) => p.scans.length > 0 && !deliberate(p.sql));
    expect(offenders.map((p) => `${p.sql.slice(0, 160)}\n  ${p.scans.join('; ')}`)).toEqual([]);
  });

  it('tells a per-row lookup from a whole-table load', () => {
    expect(isSingleTableLoad("SELECT count(*) FROM documents WHERE status = 'indexed'")).toBe(true);
    expect(isSingleTableLoad('SELECT src, dst, weight FROM doc_edges ORDER BY src, weight DESC')).toBe(true);
    expect(isSingleTableLoad('SELECT 1 FROM fcis WHERE chunk_id = 7')).toBe(false);
    expect(isSingleTableLoad('SELECT id FROM chunks WHERE id IN (SELECT value FROM json_each(\'[1]\'))')).toBe(false);
    expect(isSingleTableLoad('SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id')).toBe(false);
  });

  it('every foreign key has an index on its child column (a delete cascade seeks, never scans)', () => {
    const fks = foreignKeyLookups(work.traced.db);
    expect(fks.length).toBeGreaterThanOrEqual(20);
    expect(fks.filter((f) => !f.indexed).map((f) => `${f.child}.${f.column}: ${f.plan.join(' / ')}`)).toEqual([]);
  });

  it("every trigger statement seeks on the deleted row's key", () => {
    const triggers = triggerStatements(work.traced.db);
    expect(triggers.some((t) => t.keyColumns.includes('owner_id'))).toBe(true);
    const bad = triggers.map((t) => ({ ...t, plan: explain(work.traced.db, t.sql) })).filter((t) => !seeksOn(t.plan, t.keyColumns));
    expect(bad.map((t) => `${t.trigger}: ${t.sql} => ${t.plan.join(' / ')}`)).toEqual([]);
  });
});

describe('migration 0002', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-mig-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('upgrades an index written at schema 1, keeping its rows, and the checks above fail without it', () => {
    const file = join(dir, 'v1.db');
    const raw = new Database(file);
    raw.exec(migrations[0]!.sql);
    raw.pragma('user_version = 1');
    raw.prepare("INSERT INTO documents (root, rel_path, status) VALUES ('/r', 'a.md', 'indexed')").run();
    // At schema 1 the cascade from chunks scans fcis: the regression this migration fixes.
    expect(foreignKeyLookups(raw).find((f) => f.child === 'fcis' && f.column === 'chunk_id')?.indexed).toBe(false);
    raw.close();

    const db = openDb(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(2);
      expect(db.prepare('SELECT count(*) FROM documents').pluck().get()).toBe(1);
      expect(foreignKeyLookups(db).filter((f) => !f.indexed)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
