// Errors that cross the transport boundary. They travel as plain objects (WireError) so that
// Electron IPC and JSON over HTTP both keep the call name and the offending field.
import type { z } from 'zod';

export type Boundary = 'request' | 'response' | 'event';

export interface WireError {
  kind: 'contract' | 'engine' | 'transport';
  message: string;
  call?: string;
  /** Set when an engine error is the caller's mistake (a missing chat or note, a bad value): a 4xx, not a 500. */
  code?: 'not_found' | 'invalid';
  /** Dotted field paths with what is wrong with each, for contract errors. */
  issues?: { path: string; message: string }[];
}

export type WireResult = { ok: true; result: unknown } | { ok: false; error: WireError };

export class LociCallError extends Error {
  readonly kind: WireError['kind'];
  readonly call: string | undefined;
  readonly code: WireError['code'];
  readonly issues: { path: string; message: string }[];
  constructor(wire: WireError) {
    super(wire.message);
    this.name = 'LociCallError';
    this.kind = wire.kind;
    this.call = wire.call;
    this.code = wire.code;
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
  const message = err instanceof Error ? err.message : String(err);
  const code = userErrorCode(err);
  return { kind: 'engine', call: name, message: `loci call "${name}" failed: ${message}`, ...(code ? { code } : {}) };
}

/** Duck-typed (main/engine/errors.ts's UserError) so the contract does not import the engine. */
function userErrorCode(err: unknown): WireError['code'] {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && (err.name === 'UserError' || err.name === 'NotFoundError') && (code === 'not_found' || code === 'invalid') ? code : undefined;
}

/** The HTTP status a failed call is answered with. */
export function httpStatus(error: WireError): number {
  if (error.kind === 'contract') return 400;
  if (error.code === 'not_found') return 404;
  if (error.code === 'invalid') return 400;
  return 500;
}
