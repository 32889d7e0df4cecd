// The hot queries use indexes: plans of the SQL the engine really runs (traced over the sample notes:
// indexing, every retrieval method with its answer, mind maps, the graph, editing notes and asking again,
// deleting notes, removing the folder), of the child-key lookups a delete cascade makes, and of the
// trigger bodies. Run `npx tsx scripts/explain-plans.ts` to read the plans themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runQueryWorkload, type WorkloadResult } from '../../main/engine/diagnostics/query-workload.js';
import { bigScans, explain, foreignKeyLookups, planStatements, seeksOn, triggerStatements } from '../../main/engine/store/query-plans.js';
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
  [/^SELECT d\.id, substr\(c\.text, 1, \d+(?:\.\d+)?\) AS text FROM documents d LEFT JOIN chunks c .* WHERE d\.lang = ''/, 'the notes not judged yet, through their partial index, once per run'],
  [/^SELECT 1 FROM documents d WHERE d\.status = 'indexed' AND NOT EXISTS \(SELECT 1 FROM graph_pending p .*\) LIMIT 1$/, 'whether any built note exists: stops at the first'],
  [/^SELECT n\.id, n\.document_id, n\.kind, e\.vector FROM mm_nodes n JOIN embeddings e .* WHERE n\.kind IN/, 'mind-map vectors for the pseudo-graph, once per graph step'],
  [/^SELECT c\.id, c\.text, c\.line_from AS lineFrom, c\.line_to AS lineTo, e\.vector FROM chunks c JOIN embeddings e /, 'chunk vectors into memory, once per index generation'],
  [/^SELECT c\.id, c\.document_id AS docId, c\.line_from AS lineFrom, c\.line_to AS lineTo FROM chunks c JOIN documents d /, 'the entity graph’s chunks, once per index generation'],
  [/^SELECT c\.id AS chunkId, c\.document_id AS docId, f\.seg AS seg, c\.is_code AS isCode FROM chunks c JOIN documents d /, 'the words title mentions are found in, once per index generation'],
  [/^SELECT d\.id, d\.content_hash, c\.id FROM documents d LEFT JOIN chunks c /, 'every note’s version, once per index generation (per-note title hits and bigram counts)'],
  [/^SELECT d\.id, d\.title, d\.rel_path AS relPath, d\.root, \(SELECT count\(\*\) FROM doc_edges e /, 'every note with its degree, once per drawing of the whole-library graph'],
  [/^DELETE FROM super_nodes WHERE \(SELECT count\(\*\) FROM super_members m WHERE m\.super_id = super_nodes\.id\) < 2$/, 'super nodes left with one member, swept once per graph step'],
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

  it('sees a scan through a table alias, and an index search on a coarse column alone', () => {
    const sql = 'SELECT e.model, src.text FROM src JOIN embeddings e ON e.owner_kind = 1 AND e.owner_id = src.id';
    expect(bigScans(['SEARCH e USING INDEX embeddings_owner (owner_kind=?)'], sql)).toHaveLength(1);
    expect(bigScans(['SEARCH e USING INDEX embeddings_owner (owner_kind=? AND owner_id=?)'], sql)).toEqual([]);
    expect(bigScans(['SCAN c USING INDEX chunks_doc'], 'SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id')).toHaveLength(1);
    expect(bigScans(['SCAN src'], sql)).toEqual([]);
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
