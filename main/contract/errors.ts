// Errors that cross the transport boundary. They travel as plain objects (WireError) so that
// Electron IPC and JSON over HTTP both keep the call name and the offending field.
import type { z } from 'zod';

export type Boundary = 'request' | 'response' | 'event';

export interface WireError {
  kind: 'contract' | 'engine' | 'transport';
  message: string;
  call?: string;
  /** Dotted field paths with what is wrong with each, for contract errors. */
  issues?: { path: string; message: string }[];
}

export type WireResult = { ok: true; result: unknown } | { ok: false; error: WireError };

export class LociCallError extends Error {
  readonly kind: WireError['kind'];
  readonly call: string | undefined;
  readonly issues: { path: string; message: string }[];
  constructor(wire: WireError) {
    super(wire.message);
    this.name = 'LociCallError';
    this.kind = wire.kind;
    this.call = wire.call;
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
  return { kind: 'engine', call: name, message: `loci call "${name}" failed: ${message}` };
}
