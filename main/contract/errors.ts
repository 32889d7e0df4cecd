// Errors that cross the transport boundary. They travel as plain objects (WireError) so that
// Electron IPC and JSON over HTTP both keep the call name and the offending field.
import type { z } from 'zod';
import type { ErrorCode } from './shapes/error-codes.js';

export type { ErrorCode };

export type Boundary = 'request' | 'response' | 'event';

/** Browser mode's status for each kind of failure (shapes/error-codes.ts); IPC carries the code as is. */
export const ERROR_STATUS: Record<ErrorCode, number> = { invalid: 400, not_found: 404, conflict: 409, locked: 409, internal: 500 };

export interface WireError {
  kind: 'contract' | 'engine' | 'transport';
  message: string;
  call?: string;
  /** Engine errors: the caller's mistake (invalid, not_found), a clash with another writer (conflict, locked) or Loci's own (internal). */
  code?: ErrorCode;
  /** For `locked`: who holds the index (pid, what it is doing, since when), as the lock reports it. */
  holder?: Record<string, string | number>;
  /** Dotted field paths with what is wrong with each, for contract errors. */
  issues?: { path: string; message: string }[];
}

export type WireResult = { ok: true; result: unknown } | { ok: false; error: WireError };

export class LociCallError extends Error {
  readonly kind: WireError['kind'];
  readonly call: string | undefined;
  readonly code: WireError['code'];
  readonly holder: WireError['holder'];
  readonly issues: { path: string; message: string }[];
  constructor(wire: WireError) {
    super(wire.message);
    this.name = 'LociCallError';
    this.kind = wire.kind;
    this.call = wire.call;
    this.code = wire.code;
    this.holder = wire.holder;
    this.issues = wire.issues ?? [];
  }
}

export function contractError(name: string, boundary: Boundary, error: z.ZodError): WireError {
  const issues = error.issues.map((i) => ({
    path: i.path.length ? i.path.map(String).join('.') : '(root)',
    message: i.message,
  }));
  const detail = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
  return { kind: 'contract', call: name, issues, message: `loci ${boundary === 'event' ? 'event' : 'call'} "${name}": invalid ${boundary} — ${detail}` };
}

export function unknownName(kind: 'call' | 'event', name: unknown): WireError {
  return { kind: 'contract', message: `loci: unknown ${kind} ${JSON.stringify(name)}`, issues: [] };
}

export function engineError(name: string, err: unknown): WireError {
  const { code, message, holder } = classify(err);
  return { kind: 'engine', call: name, message: `loci call "${name}" failed: ${message}`, code, ...(holder ? { holder } : {}) };
}

/** True when the error is Loci's own fault (a bug, SQLite's internals), whose text means nothing to a person. */
export function isInternal(error: WireError): boolean {
  return error.kind === 'engine' && (error.code ?? 'internal') === 'internal';
}

const PROGRAMMER_ERRORS = new Set(['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'SqliteError']);

/**
 * Duck-typed (main/engine/errors.ts's UserError and its kin carry a `code`) so the contract does not
 * import the engine; SQLite's busy, read-only and full conditions are put in words a person can act on.
 */
function classify(err: unknown): { code: ErrorCode; message: string; holder?: Record<string, string | number> } {
  const e = err instanceof Error ? (err as Error & { code?: unknown; holder?: unknown }) : null;
  const text = e ? e.message : String(err);
  if (!e) return { code: 'internal', message: text };
  if (typeof e.code === 'string' && e.code in ERROR_STATUS && e.code !== 'internal') {
    const holder = e.holder && typeof e.holder === 'object' ? (e.holder as Record<string, string | number>) : undefined;
    return { code: e.code as ErrorCode, message: text, ...(holder ? { holder } : {}) };
  }
  const sqlite = typeof e.code === 'string' && e.code.startsWith('SQLITE_') ? e.code : '';
  if (sqlite.startsWith('SQLITE_BUSY') || sqlite.startsWith('SQLITE_LOCKED')) {
    return { code: 'locked', message: 'the index is busy with another writer (another Loci process is indexing it); try again when it is done.' };
  }
  if (sqlite.startsWith('SQLITE_READONLY')) return { code: 'conflict', message: 'the index is read-only here, so nothing could be changed.' };
  if (sqlite === 'SQLITE_FULL') return { code: 'internal', message: 'the disk is full, so the index could not be written; free some space and try again.' };
  if (PROGRAMMER_ERRORS.has(e.name) || sqlite) return { code: 'internal', message: 'Loci hit an internal error (the details are in its log).' };
  return { code: 'internal', message: text };
}

/** The HTTP status a failed call is answered with. */
export function httpStatus(error: WireError): number {
  if (error.kind === 'contract') return 400;
  if (error.kind === 'engine') return ERROR_STATUS[error.code ?? 'internal'];
  return 500;
}
