// Why an index cannot be written, and how to read it anyway. A WAL index is read in place only when
// SQLite can create its -shm file beside it: in a read-only folder, on a read-only filesystem or on a
// full disk it cannot, so the file is then opened as immutable (no -shm, no locks; nothing writes it
// from here and the notice says so).
import type Database from 'better-sqlite3';
import { openSqlite } from './sqlite.js';
import { accessSync, constants, existsSync, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

// better-sqlite3 reads this once, when its native addon loads (the first `new Database`): URI filenames
// are what let `?immutable=1` through. Paths Loci opens are absolute, never `file:` strings.
process.env.SQLITE_USE_URI ??= '1';

/** Below this many free bytes the disk is treated as full: one indexed note's rows need more. */
export const FULL_DISK_BYTES = 1 << 20;

/** What stops this process writing the index at `file` (the sentence a notice shows), or null. */
export function writeBlocker(file: string): string | null {
  if (file === ':memory:' || !existsSync(file)) return null;
  const dir = dirname(file);
  const denied = (p: string) => {
    try {
      accessSync(p, constants.W_OK);
      return null;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code ?? 'EACCES';
    }
  };
  const onFile = denied(file);
  if (onFile === 'EROFS') return `the filesystem holding ${file} is mounted read-only`;
  if (onFile) return `the file ${file} is read-only for this user`;
  const onDir = denied(dir);
  if (onDir === 'EROFS') return `the filesystem holding ${file} is mounted read-only`;
  if (onDir) return `its folder ${dir} is read-only for this user (SQLite must create the index's -wal and -shm files there)`;
  return diskFull(dir);
}

/** A sentence naming a full disk under `dir`, or null when there is room (or it cannot be told). */
export function diskFull(dir: string): string | null {
  try {
    const s = statfsSync(dir);
    const free = Number(s.bavail) * Number(s.bsize);
    return free < FULL_DISK_BYTES ? `the disk holding ${dir} is full (${Math.round(free / 1024)} KB free)` : null;
  } catch {
    return null;
  }
}

const unreadWal = new WeakSet<Database.Database>();

/**
 * Said beside the cause when the index was opened as immutable over a -wal file a writer left (killed
 * before its checkpoint): immutable reads only the main file, so those last commits are not seen.
 */
export function unreadWalNotice(db: Database.Database): string | null {
  return unreadWal.has(db) ? "its last changes, still in the index's -wal file, are not shown (SQLite cannot read them without creating its -shm file)" : null;
}

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** SQLite failed for want of write access or room, not because the file is something else. */
export function isUnwritable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(READONLY|CANTOPEN|FULL|IOERR)/.test(code);
}

/**
 * Opens an existing index read-only: in place when SQLite can (another process's writes stay visible),
 * else as an immutable file. `probe` runs a first read, where SQLite finds out whether it can map the WAL.
 */
export function openReadOnlyDatabase(file: string, probe: (db: Database.Database) => void): Database.Database {
  const inPlace = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    probe(inPlace);
    return inPlace;
  } catch (err) {
    inPlace.close();
    if (!isUnwritable(err)) throw err;
  }
  const frozen = openSqlite(`${pathToFileURL(file).href}?immutable=1`, { readonly: true, fileMustExist: true });
  try {
    probe(frozen);
    if (walBytes(file) > 0) unreadWal.add(frozen);
    return frozen;
  } catch (err) {
    frozen.close();
    throw err;
  }
}
