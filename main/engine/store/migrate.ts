// Brings an index's schema up to date by migration name. Indexes that record names get the ones they
// lack; older ones (user_version only, whose numbers were reassigned while branches merged) are judged
// by schema fingerprint, get what they really lack, and must then equal a fresh index's schema — else
// nothing is changed and the index is refused with the way to repair it.
import type { Db } from './db.js';
import { migrations } from './migrations/index.js';
import { migrationStates, schemaDifferences, type MigrationState } from './schema-fingerprint.js';

export const LATEST_SCHEMA = migrations[migrations.length - 1]?.version ?? 0;
const NAMES_TABLE = 'schema_migrations';
/** Needs write access to exist; an index lacking only this still reads as current. */
const BOOKKEEPING = 'migration names';

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** The index cannot be brought up to date by this build (the message says why and how to repair it). */
export class SchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaError';
  }
}

/** Every migration recorded and the version current: nothing for `migrate` to do. */
export function schemaIsCurrent(db: Db): boolean {
  const recorded = recordedNames(db);
  return recorded !== null && recorded.size === migrations.length && schemaVersion(db) === LATEST_SCHEMA;
}

/**
 * Applies every migration the index lacks, in one transaction: all of them, or none and a SchemaError.
 * What is lacking is read again inside the write transaction: another process may have upgraded the
 * index while this one waited for it.
 */
export function migrate(db: Db, file: string): void {
  if (schemaIsCurrent(db)) return;
  db.transaction(() => {
    const current = schemaVersion(db);
    const recorded = recordedNames(db);
    if (current > LATEST_SCHEMA || (recorded && [...recorded].some((n) => !migrations.some((m) => m.name === n)))) throw newerSchema(file, current);
    if (recorded && recorded.size === migrations.length && current === LATEST_SCHEMA) return;
    const empty = current === 0 && !recorded && (db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number) === 0;
    const states: MigrationState[] = empty ? migrations.map(() => 'missing') : recorded ? migrations.map((m) => (recorded.has(m.name) ? 'applied' : 'missing')) : migrationStates(db);
    // Half a migration is finished only when nothing after it ran: replayed under later ones, it would
    // bring back what they removed.
    const partial = states.indexOf('partial');
    if (partial >= 0 && states.slice(partial + 1).includes('applied')) throw refusal(file, describe(db));
    migrations.forEach((m, i) => {
      const state = states[i]!;
      if (state === 'applied') return;
      try {
        if (state === 'missing') db.exec(m.sql);
        else applyRest(db, m.sql);
      } catch (err) {
        throw refusal(file, `migration ${m.version} '${m.name}' failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    if (!recorded && !empty) dropLeftovers(db, file);
    const record = db.prepare(`INSERT OR IGNORE INTO ${NAMES_TABLE} (name, version, applied_at) VALUES (?, ?, ?)`);
    for (const m of migrations) record.run(m.name, m.version, Date.now());
    db.pragma(`user_version = ${LATEST_SCHEMA}`);
  })();
}

/** For a read-only open: throws unless the index already has every migration (bar the name records). */
export function assertCurrentSchema(db: Db, file: string): void {
  const current = schemaVersion(db);
  const recorded = recordedNames(db);
  if (current > LATEST_SCHEMA || (recorded && [...recorded].some((n) => !migrations.some((m) => m.name === n)))) throw newerSchema(file, current);
  const lacking = recorded
    ? migrations.filter((m) => !recorded.has(m.name))
    : migrationStates(db).flatMap((s, i) => (s === 'applied' || migrations[i]!.name === BOOKKEEPING ? [] : [migrations[i]!]));
  if (lacking.length === 0) return;
  throw new SchemaError(
    `The index ${file} is read-only and was written by an older Loci (it lacks ${lacking.map((m) => `'${m.name}'`).join(', ')}); open it once with write access so it can be upgraded.`,
  );
}

function recordedNames(db: Db): Set<string> | null {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(NAMES_TABLE);
  if (!exists) return null;
  return new Set(db.prepare(`SELECT name FROM ${NAMES_TABLE}`).pluck().all() as string[]);
}

/**
 * A migration an earlier build shipped only part of (an older cut of it): its statements run one by one
 * and a statement whose effect is already there is passed over. The schema check afterwards decides.
 */
function applyRest(db: Db, sql: string): void {
  for (const statement of statements(sql)) {
    try {
      db.exec(statement);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      if (!/already exists|^no such (table|trigger|index|view)|duplicate column name/.test(text)) throw err;
    }
  }
}

/** Splits a migration's SQL into statements; a trigger's body (BEGIN … END;) stays whole. */
export function statements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of sql.split('\n')) {
    current += `${line}\n`;
    const text = current.replace(/^(\s*--[^\n]*\n)+/, '').trim();
    if (!text.endsWith(';')) continue;
    if (/^CREATE\s+(TEMP\s+|TEMPORARY\s+)?TRIGGER\b/i.test(text) && !/\bEND\s*;$/i.test(text)) continue;
    out.push(text);
    current = '';
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * Indexes and triggers an earlier build made that the current schema has no place for go (a trigger
 * writing a table since dropped would break every delete); any other difference from a fresh index
 * refuses the upgrade.
 */
function dropLeftovers(db: Db, file: string): void {
  for (const key of schemaDifferences(db).extra) {
    const [type, name] = key.split(':') as [string, string];
    if (type === 'index' || type === 'trigger') db.exec(`DROP ${type.toUpperCase()} IF EXISTS "${name.replace(/"/g, '""')}"`);
  }
  const problems = describe(db);
  if (problems) throw refusal(file, problems);
}

/** How the schema differs from a fresh index's, in a few words ('' when it does not). */
function describe(db: Db): string {
  const diff = schemaDifferences(db);
  const problems = [
    ...diff.changed.map((k) => `${k.replace(':', ' ')} shaped otherwise`),
    ...diff.missing.map((k) => `no ${k.replace(':', ' ')}`),
    ...diff.extra.map((k) => `an unknown ${k.replace(':', ' ')}`),
  ];
  return problems.slice(0, 6).join('; ') + (problems.length > 6 ? `; and ${problems.length - 6} more` : '');
}

function refusal(file: string, detail: string): SchemaError {
  return new SchemaError(
    `The index ${file} was written by an earlier Loci build whose schema this build cannot bring up to date (${detail}). ` +
      `Nothing in it was changed. Run \`loci check --repair --db ${file}\` to rebuild it from your notes (settings, folders and conversations are kept), or pick another --db file.`,
  );
}

function newerSchema(file: string, current: number): SchemaError {
  return new SchemaError(`The index ${file} was written by a newer Loci (schema ${current}, this build knows ${LATEST_SCHEMA}). Update Loci or pick another index file.`);
}
