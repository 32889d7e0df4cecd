// `loci check [--repair]` on an index file: a plain check opens it read-only and never waits for a
// writer; a repair takes the writer lock, mends in place, and rebuilds an index it cannot mend (a schema
// no migration brings up to date, pages REINDEX cannot fix): the old file moves aside, a new one keeps
// the settings, folders and conversations, and the caller indexes the folders again.
import { openSqlite } from '../store/sqlite.js';
import { existsSync, renameSync } from 'node:fs';
import { openDb } from '../store/db.js';
import { LATEST_SCHEMA, SchemaError } from '../store/migrate.js';
import { copyKeptRows } from '../store/index-check.js';
import { listFolders } from '../store/library.js';
import { WriterLock, type LockHolder } from '../store/writer-lock.js';
import { describeHolder } from '../errors.js';
import { DEFAULT_SETTINGS } from '../settings.js';
import { checkIndex, type CheckReport } from './check-index.js';

export interface CheckRun extends CheckReport {
  dbPath: string;
  /** Set when the repair rebuilt the index: where the old file went, what was kept, the folders to index again. */
  rebuilt?: { movedTo: string; kept: Record<string, number>; unreadable: string[]; folders: string[] };
}

export interface CheckOptions {
  repair?: boolean;
  /** Wait for another process writing the index (default), or fail with IndexLockedError. */
  wait?: boolean;
  onWait?: (holder: LockHolder) => void;
}

export async function runCheck(dbPath: string, opts: CheckOptions = {}): Promise<CheckRun> {
  return opts.repair ? repairIndex(dbPath, opts) : checkOnly(dbPath);
}

function checkOnly(dbPath: string): CheckRun {
  const holder = new WriterLock(dbPath).holder();
  // A process killed before its first commit leaves an empty file: an index with nothing in it yet.
  if (isEmptyDatabase(dbPath)) {
    return { dbPath, ok: true, findings: [{ check: 'schema', ok: true, message: 'the index is empty: nothing has been indexed into it yet' }], notes: [], reindex: 0 };
  }
  let db;
  try {
    db = openDb(dbPath, { readonly: true });
  } catch (err) {
    return { dbPath, ok: false, findings: [{ check: 'schema', ok: false, message: errorText(err) }], notes: [], reindex: 0 };
  }
  try {
    const report = checkIndex(db);
    if (holder) report.notes.unshift(`${describeHolder(holder)} is ${holder.activity || 'writing to this index'}: what it has not finished may show here; check again when it is done.`);
    return { dbPath, ...report };
  } finally {
    db.close();
  }
}

async function repairIndex(dbPath: string, opts: CheckOptions): Promise<CheckRun> {
  const taken: string[] = [];
  const lock = new WriterLock(dbPath, (stale) => taken.push(`A lock left by a Loci process that is gone (pid ${stale.pid}) was taken over.`));
  await lock.acquire('checking and repairing this index', { wait: opts.wait ?? true, onWait: opts.onWait });
  try {
    let db;
    try {
      db = openDb(dbPath);
    } catch (err) {
      if (!(err instanceof SchemaError) || writtenByNewerLoci(dbPath)) {
        return { dbPath, ok: false, findings: [{ check: 'schema', ok: false, message: errorText(err) }], notes: taken, reindex: 0 };
      }
      return rebuild(dbPath, errorText(err), taken);
    }
    let report: CheckReport;
    try {
      report = checkIndex(db, { repair: true });
    } finally {
      db.close();
    }
    const left = report.findings.find((f) => (f.check === 'sqlite' || f.check === 'schema') && !f.ok);
    if (left) return rebuild(dbPath, left.check === 'schema' ? left.message : 'SQLite found damage that rebuilding its indexes did not mend', taken);
    return { dbPath, ...report, notes: [...taken, ...report.notes] };
  } finally {
    lock.release();
  }
}

function isEmptyDatabase(dbPath: string): boolean {
  try {
    const db = openSqlite(dbPath, { readonly: true, fileMustExist: true });
    try {
      const tables = (db.pragma('table_list') as { schema: string; name: string }[]).filter((t) => t.schema === 'main' && !t.name.startsWith('sqlite_'));
      return (db.pragma('user_version', { simple: true }) as number) === 0 && tables.length === 0;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** An index a newer Loci wrote is never rebuilt by an older one: that would drop what the newer one added. */
function writtenByNewerLoci(dbPath: string): boolean {
  try {
    const db = openSqlite(dbPath, { readonly: true, fileMustExist: true });
    try {
      return (db.pragma('user_version', { simple: true }) as number) > LATEST_SCHEMA;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

function rebuild(dbPath: string, reason: string, notes: string[]): CheckRun {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const movedTo = `${dbPath}.damaged-${stamp}`;
  // The WAL moves with the file, under the same name, so SQLite still reads the last commits from it.
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(dbPath + suffix)) renameSync(dbPath + suffix, movedTo + suffix);
  const fresh = openDb(dbPath);
  try {
    let kept: Record<string, number> = {};
    let unreadable: string[] = [];
    try {
      const old = openSqlite(movedTo, { readonly: true, fileMustExist: true });
      try {
        ({ copied: kept, unreadable } = copyKeptRows(old, fresh, Object.keys(DEFAULT_SETTINGS)));
      } finally {
        old.close();
      }
    } catch {
      unreadable = ['settings', 'library_folders', 'chats', 'chat_messages'];
    }
    const folders = listFolders(fresh).map((f) => f.root);
    const keptText = Object.entries(kept).map(([t, n]) => `${n} ${t.replace('_', ' ')}`).join(', ') || 'nothing';
    return {
      dbPath,
      ok: true,
      findings: [{ check: 'schema', ok: true, message: `the index could not be mended in place: ${reason}`, repaired: `moved it to ${movedTo} and made a new index keeping ${keptText}${unreadable.length ? ` (could not read: ${unreadable.join(', ')})` : ''}` }],
      notes,
      reindex: 0,
      rebuilt: { movedTo, kept, unreadable, folders },
    };
  } finally {
    fresh.close();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
