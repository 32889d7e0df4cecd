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
 * Statements that read a whole table on purpose, once per indexing run or per index generation (cached),
 * never per question or per row. Anything else that scans a big table fails the test.
 */
const WHOLE_TABLE_READS: [RegExp, string][] = [
  [/^SELECT count\(\*\) FROM \w+( WHERE \w+ (=|<>) '\w+')?$/, 'stats counts'],
  [/^DELETE FROM entities WHERE NOT EXISTS/, 'orphan-entity sweep, once per run'],
  [/^SELECT \* FROM \(SELECT id, \w+ FROM \w+\) src WHERE NOT EXISTS \(SELECT 1 FROM embeddings/, 'embed what lacks a vector, once per run'],
  [/^SELECT src, dst, weight FROM doc_edges( ORDER BY src, weight DESC)?$/, 'document layer loaded whole for fusion / HIG cache'],
  [/^DELETE FROM super_nodes$/, 'super-nodes rebuilt each run'],
  [/^SELECT super_id AS id, count\(\*\) AS n FROM super_members GROUP BY super_id$/, 'PG-RAG cache, once per index generation'],
  [/^SELECT id(, title)? FROM documents WHERE status = 'indexed'( ORDER BY id)?$/, 'every indexed note (title table, graph listing)'],
];

let work: WorkloadResult;
beforeAll(async () => {
  work = await runQueryWorkload(SAMPLE_NOTES, ['How long is the development time for the Guji roast?', 'Who runs Kestrel Coffee Works?']);
}, 120_000);
afterAll(() => work?.dispose());

describe('query plans', () => {
  it('no statement the engine runs scans a big table, except the listed whole-table reads', () => {
    const plans = planStatements(work.traced.db, work.traced.statements());
    expect(plans.length).toBeGreaterThan(40);
    const offenders = plans.filter((p) => p.scans.length > 0 && !WHOLE_TABLE_READS.some(([re]) => re.test(p.sql)));
    expect(offenders.map((p) => `${p.sql.slice(0, 160)}\n  ${p.scans.join('; ')}`)).toEqual([]);
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
