// Errors that are the caller's mistake or a clash, not the engine's: a chat or note that does not exist,
// a value out of range, a job already running. Hosts answer them by their code (the contract's
// ERROR_STATUS: 404, 400, 409) with the message as written here, instead of a 500 carrying whatever
// SQLite said.
import { hostname } from 'node:os';
import type { ErrorCode } from '../contract/shapes/error-codes.js';

export type UserErrorCode = Exclude<ErrorCode, 'internal'>;

export class UserError extends Error {
  readonly code: UserErrorCode;
  constructor(message: string, code: UserErrorCode = 'invalid') {
    super(message);
    this.name = 'UserError';
    this.code = code;
  }
}

export class NotFoundError extends UserError {
  constructor(message: string) {
    super(message, 'not_found');
    this.name = 'NotFoundError';
  }
}

/** The request is sound but clashes with what is going on (a folder already indexing, a model in use). */
export class ConflictError extends UserError {
  constructor(message: string) {
    super(message, 'conflict');
    this.name = 'ConflictError';
  }
}

export function isUserError(err: unknown): err is UserError {
  return err instanceof UserError;
}

/** Who holds an index's writer lock (store/writer-lock.ts): as written in `<db>.lock`. */
export interface LockHolder {
  pid: number;
  host: string;
  /** When it took the lock (ISO time). */
  started: string;
  /** What it is doing, e.g. "indexing /home/me/notes". */
  activity: string;
  token: string;
  /** Its process's start time (Linux clock ticks since boot), so a reused PID is not taken for it. */
  procStart: number | null;
}

/** Another Loci process is writing this index (`locked`: HTTP 409), with who it is. */
export class IndexLockedError extends UserError {
  /** Who writes it: what the contract carries to the UI (not the lock's token). */
  readonly holder: { pid: number; host: string; started: string; activity: string };
  constructor(holder: LockHolder, lockFile?: string) {
    const who = describeHolder(holder);
    super(`${who[0]!.toUpperCase()}${who.slice(1)} is ${holder.activity || 'writing to this index'}: an index takes one writer at a time. Try again when it has finished.${otherHostHint(holder, lockFile)}`, 'locked');
    this.name = 'IndexLockedError';
    this.holder = { pid: holder.pid, host: holder.host, started: holder.started, activity: holder.activity };
  }
}

/**
 * A holder on another machine (an index on a shared drive), or under a host name this machine no longer
 * has, cannot be checked from here: if it is gone, only a person can tell, and remove its lock file.
 */
export function otherHostHint(holder: LockHolder, lockFile?: string): string {
  if (!lockFile || holder.host === hostname()) return '';
  return ` If no Loci runs on ${holder.host} any more, delete ${lockFile}.`;
}

/** "another Loci process (pid 4242 on box, started 10:02:11)": how a holder is named to people. */
export function describeHolder(h: LockHolder): string {
  return `another Loci process (pid ${h.pid}${h.host ? ` on ${h.host}` : ''}, started ${lockTime(h.started)})`;
}

/** A lock's time as people read it: the time of day when it is today's, else the date too. */
export function lockTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  const today = new Date().toDateString() === at.toDateString();
  return today ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

/**
 * SQLite's words for a write the disk refused (full, a file-size limit, a failing disk), put so a person
 * can act on them; null for any other error. Each note is written whole or not at all, so nothing is lost.
 */
export function diskWriteFailure(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR'))) return null;
  const detail = err instanceof Error ? err.message : String(err);
  return `The index could not be written: the disk is full, a file-size limit was reached, or the disk failed (SQLite: ${detail}). What was written before is kept whole; free some space and run the command again.`;
}
