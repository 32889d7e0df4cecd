// `loci check`: the index's invariants, each a finding that holds or not, and with `repair` what can be
// mended in place. A note whose rows cannot be trusted is cleared and marked, so the next index run
// writes it again from the file; missing vectors are left to that run's graph step.
import type { Db } from '../store/db.js';
import type { OwnerKind } from '../store/embeddings.js';
import { getSetting } from '../store/settings.js';
import { schemaDifferences } from '../store/schema-fingerprint.js';
import { clearNoteForReindex, markGraphPending } from '../store/documents.js';
import {
  deleteFtsRows,
  deleteRowsByRowid,
  deleteRowsWithoutDocument,
  documentIdsOfRows,
  documentsAwaitingReindex,
  documentsMissingVectors,
  documentsMixedUp,
  documentsOfChunks,
  documentsWrittenTwice,
  foreignKeyViolations,
  FTS_TABLES,
  ftsIntegrityProblem,
  ftsMismatch,
  integrityProblems,
  pendingDocuments,
  rebuildFts,
  rebuildIndexes,
  rowsWithoutDocument,
} from '../store/index-check.js';

export type CheckName = 'schema' | 'sqlite' | 'foreign-keys' | 'full-text' | 'orphans' | 'one-run-per-note' | 'vectors';

export interface CheckFinding {
  check: CheckName;
  ok: boolean;
  /** What holds, or what is wrong (for people). */
  message: string;
  /** With --repair: what was done about it. */
  repaired?: string;
}

export interface CheckReport {
  ok: boolean;
  findings: CheckFinding[];
  /** Facts worth knowing that are not damage: work a later run finishes, notes waiting to be written again. */
  notes: string[];
  /** Notes cleared by the repair, which the next `loci index` writes again. */
  reindex: number;
}

/** The vectors the graph's embedder needs, kind by kind (what the index runs write). */
const VECTOR_KINDS: readonly OwnerKind[] = ['doc', 'chunk', 'fci', 'mm', 'entity'];

/** Checks the index; with `repair` (a writable connection, the writer lock held) mends what it can, then checks again. */
export function checkIndex(db: Db, opts: { repair?: boolean } = {}): CheckReport {
  // One read transaction: a process writing meanwhile cannot show half a commit as a mismatch.
  const first = db.transaction(() => runChecks(db, !db.readonly))();
  if (!opts.repair || first.findings.every((f) => f.ok)) return first;
  const repairs = repair(db, first);
  const after = db.transaction(() => runChecks(db, true))();
  for (const f of after.findings) {
    const done = repairs.get(f.check);
    if (done) f.repaired = done;
  }
  return after;
}

function runChecks(db: Db, writable: boolean): CheckReport {
  const findings: CheckFinding[] = [];
  const notes: string[] = [];
  const diff = schemaDifferences(db);
  const schema = [...diff.missing.map((k) => `no ${k.replace(':', ' ')}`), ...diff.changed.map((k) => `${k.replace(':', ' ')} shaped otherwise`), ...diff.extra.map((k) => `an unknown ${k.replace(':', ' ')}`)];
  findings.push(
    schema.length
      ? { check: 'schema', ok: false, message: `the schema is not this build's (${schema.slice(0, 4).join('; ')}${schema.length > 4 ? `; and ${schema.length - 4} more` : ''})` }
      : { check: 'schema', ok: true, message: "schema: this build's" },
  );
  const integrity = integrityProblems(db);
  findings.push(integrity.length ? { check: 'sqlite', ok: false, message: `SQLite's integrity check failed: ${integrity.slice(0, 3).join('; ')}${integrity.length > 3 ? ` (and ${integrity.length - 3} more)` : ''}` } : { check: 'sqlite', ok: true, message: 'SQLite integrity check: ok' });

  const fk = foreignKeyViolations(db);
  findings.push(fk.length ? { check: 'foreign-keys', ok: false, message: `${fk.length} rows point at rows that are gone (${summarise(fk.map((v) => `${v.table} → ${v.parent}`))})` } : { check: 'foreign-keys', ok: true, message: 'foreign keys: ok' });

  const ftsProblems: string[] = [];
  for (const { fts, source } of FTS_TABLES) {
    const structural = writable ? ftsIntegrityProblem(db, fts) : null;
    if (structural) ftsProblems.push(`${fts}: ${structural}`);
    const { missing, orphans } = ftsMismatch(db, fts, source);
    if (missing.length) ftsProblems.push(`${missing.length} ${source} without a full-text row`);
    if (orphans.length) ftsProblems.push(`${orphans.length} full-text rows of ${source} that are gone`);
  }
  findings.push(ftsProblems.length ? { check: 'full-text', ok: false, message: `full-text index: ${ftsProblems.join('; ')}` } : { check: 'full-text', ok: true, message: 'full-text index: ok' });

  const orphans = rowsWithoutDocument(db);
  findings.push(orphans ? { check: 'orphans', ok: false, message: `${orphans} passages, facts or mind-map nodes belong to no note` } : { check: 'orphans', ok: true, message: 'every derived row has its note' });

  const twice = documentsWrittenTwice(db);
  const mixed = documentsMixedUp(db);
  const bad = new Set([...twice.map((t) => t.docId), ...mixed]);
  findings.push(
    bad.size
      ? { check: 'one-run-per-note', ok: false, message: `${bad.size} notes hold rows of more than one run (${summarise([...twice.map((t) => `two runs' ${t.what}`), ...mixed.map(() => 'rows of another note')])})` }
      : { check: 'one-run-per-note', ok: true, message: "each note's rows come from one run" },
  );

  const model = getSetting<string | null>(db, 'graph_model', null);
  const pending = pendingDocuments(db);
  if (model === null) {
    findings.push({ check: 'vectors', ok: true, message: 'vectors: no graph built yet (the next index run embeds the notes)' });
  } else {
    let missingRows = 0;
    let waiting = 0;
    for (const kind of VECTOR_KINDS) {
      const { rows, docIds } = documentsMissingVectors(db, kind, model);
      if (rows === 0) continue;
      const notPending = docIds.filter((d) => !pending.has(d));
      if (notPending.length) missingRows += rows;
      else waiting += rows;
    }
    findings.push(missingRows ? { check: 'vectors', ok: false, message: `${missingRows} rows have no vector from ${model}` } : { check: 'vectors', ok: true, message: `vectors from ${model}: every row has one` });
    if (waiting) notes.push(`${waiting} rows of notes an interrupted run left wait for their vectors: the next index run makes them.`);
  }
  if (pending.size) notes.push(`${pending.size} notes wait for the graph step of the next index run.`);
  const cleared = documentsAwaitingReindex(db);
  if (cleared) notes.push(`${cleared} notes are marked to be written again by the next index run.`);
  return { ok: findings.every((f) => f.ok), findings, notes, reindex: cleared };
}

function repair(db: Db, report: CheckReport): Map<CheckName, string> {
  const done = new Map<CheckName, string>();
  const failing = new Set(report.findings.filter((f) => !f.ok).map((f) => f.check));
  // A schema no migration explains cannot be mended here: the caller rebuilds the index (run-check.ts).
  if (failing.has('sqlite')) {
    rebuildIndexes(db);
    done.set('sqlite', 'rebuilt every SQLite index (REINDEX)');
  }
  db.transaction(() => {
    const toClear = new Set<number>();
    if (failing.has('foreign-keys')) {
      const fk = foreignKeyViolations(db);
      const byTable = new Map<string, number[]>();
      for (const v of fk) byTable.set(v.table, [...(byTable.get(v.table) ?? []), v.rowid]);
      for (const [table, rowids] of byTable) {
        for (const d of documentIdsOfRows(db, table, rowids)) toClear.add(d);
        deleteRowsByRowid(db, table, rowids);
      }
      done.set('foreign-keys', `deleted ${fk.length} rows that pointed at nothing`);
    }
    if (failing.has('orphans')) {
      deleteRowsWithoutDocument(db);
      done.set('orphans', 'deleted the rows of notes that are gone');
    }
    if (failing.has('full-text')) {
      const did: string[] = [];
      for (const { fts, source } of FTS_TABLES) {
        if (ftsIntegrityProblem(db, fts)) {
          rebuildFts(db, fts);
          did.push(`rebuilt ${fts}`);
        }
        const { missing, orphans } = ftsMismatch(db, fts, source);
        if (orphans.length) {
          deleteFtsRows(db, fts, orphans);
          did.push(`deleted ${orphans.length} full-text rows of gone ${source}`);
        }
        if (missing.length) {
          const docs = documentsOfChunks(db, missing);
          for (const d of docs) toClear.add(d);
          did.push(`marked ${docs.length} notes whose passages lacked full-text rows to be written again`);
        }
      }
      done.set('full-text', did.join('; '));
    }
    if (failing.has('one-run-per-note')) {
      const docs = new Set([...documentsWrittenTwice(db).map((t) => t.docId), ...documentsMixedUp(db)]);
      for (const d of docs) toClear.add(d);
      done.set('one-run-per-note', `cleared ${docs.size} notes' rows; the next index run writes them again`);
    }
    for (const d of toClear) clearNoteForReindex(db, d);
    if (failing.has('vectors')) {
      const model = getSetting<string | null>(db, 'graph_model', null);
      const docs = new Set<number>();
      if (model) for (const kind of VECTOR_KINDS) for (const d of documentsMissingVectors(db, kind, model).docIds) docs.add(d);
      markGraphPending(db, [...docs]);
      done.set('vectors', `marked ${docs.size} notes for the next index run to embed`);
    }
  })();
  return done;
}

function summarise(items: string[]): string {
  const counts = new Map<string, number>();
  for (const i of items) counts.set(i, (counts.get(i) ?? 0) + 1);
  return [...counts].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ');
}
