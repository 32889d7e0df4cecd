import type Database from 'better-sqlite3';
import { openSqlite } from './sqlite.js';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { assertCurrentSchema, LATEST_SCHEMA, migrate, schemaIsCurrent, schemaVersion } from './migrate.js';
import { diskFull, isUnwritable, openReadOnlyDatabase, unreadWalNotice, writeBlocker } from './read-only.js';

export { LATEST_SCHEMA, schemaVersion };

export type Db = Database.Database;

/** Tables every Loci index has had since migration 1: how another application's database is told apart. */
const LOCI_TABLES = ['documents', 'chunks', 'settings'];

/**
 * Opens (creating if needed) a Loci index database: WAL, foreign keys on, migrations applied. A file
 * that is not a Loci index — not SQLite, or another application's SQLite database — is refused before
 * anything is written to it. Read-only opens change nothing and need the schema to be current.
 */
export function openDb(file: string, options: { readonly?: boolean } = {}): Db {
  const readonly = options.readonly ?? false;
  if (file !== ':memory:' && !readonly) mkdirSync(dirname(file), { recursive: true });
  let db: Db;
  try {
    db = readonly && file !== ':memory:' ? openReadOnlyDatabase(file, (d) => assertLociIndex(d, file)) : openSqlite(file);
  } catch (err) {
    if (readonly && !isUnwritable(err)) throw err;
    throw new Error(`Cannot open the index ${file}${readonly ? ' read-only' : ''}: ${message(err)}.`);
  }
  try {
    // First: another process creating or migrating the same file holds locks that every step below meets.
    db.pragma('busy_timeout = 5000');
    if (!readonly) assertLociIndex(db, file);
    if (!readonly) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    if (!readonly) db.pragma('synchronous = NORMAL');
    // Savepoint and statement journals in memory: every note is written in its own savepoint, and with
    // journals in temp files SQLite copied each page a note touched to disk first (1,000 news notes:
    // 389k pwrite calls, against 57k with this; the writer's CPU time fell by about a quarter). They
    // only serve to roll back inside an open transaction, which a crash abandons anyway (the WAL keeps
    // the committed state), so nothing durable moves to memory.
    if (!readonly) db.pragma('temp_store = MEMORY');
    if (!readonly) beginWritesImmediately(db);
    if (readonly) assertCurrentSchema(db, file);
    // Decided under the write lock: two processes opening a new index at once would both have read it
    // as empty and both created its tables.
    else if (!schemaIsCurrent(db)) db.transaction(() => migrate(db, file))();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * Opens the index for writing when this process can write it, else read-only with the reason (a
 * read-only file, folder or filesystem, a full disk) for the notice the caller shows; `readOnly` asks
 * for a read-only open whatever the file allows.
 */
export function openIndex(file: string, options: { readOnly?: boolean } = {}): { db: Db; readOnly: string | null } {
  const blocker = options.readOnly ? 'it was opened read-only on request' : writeBlocker(file);
  if (blocker) return readOnlyOpen(file, blocker);
  try {
    return { db: openDb(file), readOnly: null };
  } catch (err) {
    // Writable by every check above, yet SQLite could not write it (the disk filled, a lock file denied).
    if (!existsSync(file) || !isUnwritable(err)) throw err;
    const cause = writeBlocker(file) ?? diskFull(dirname(file)) ?? `SQLite could not write it (${message(err)})`;
    try {
      return readOnlyOpen(file, cause);
    } catch (second) {
      throw new Error(`Cannot open the index ${file}: ${cause}, and reading it failed too (${message(second)}).`);
    }
  }
}

function readOnlyOpen(file: string, cause: string): { db: Db; readOnly: string } {
  const db = openDb(file, { readonly: true });
  const unread = unreadWalNotice(db);
  return { db, readOnly: unread ? `${cause}; ${unread}` : cause };
}

/**
 * Every transaction here writes, so each takes SQLite's write lock as it begins (BEGIN IMMEDIATE), where
 * the busy timeout applies. A deferred one that read first and then met another connection's commit
 * failed at once with "database is locked", whatever the timeout (SQLITE_BUSY_SNAPSHOT). Nested calls
 * are savepoints either way.
 */
function beginWritesImmediately(db: Db): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: Parameters<Db['transaction']>[0]) => transaction(fn).immediate) as Db['transaction'];
}

/** Reads only: a new (empty) file passes, a Loci index passes, anything else throws naming what it is. */
function assertLociIndex(db: Db, file: string): void {
  let tables: string[];
  let version: number;
  try {
    tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    version = schemaVersion(db);
  } catch (err) {
    // No write access or no room is not "not an index": the caller opens it read-only or names the cause.
    if (isUnwritable(err)) throw err;
    throw new Error(`${file} is not a Loci index (SQLite: ${message(err)}). Pick another --db file.`);
  }
  if (tables.length === 0 && version === 0) return;
  if (version === 0 || !LOCI_TABLES.every((t) => tables.includes(t))) {
    const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? ', …' : '');
    throw new Error(
      `${file} is another application's SQLite database (tables: ${shown || 'none'}), not a Loci index; Loci left it untouched. Pick another --db file.`,
    );
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
