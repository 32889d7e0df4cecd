// The file log of every Loci process (engine host, browser-mode server, Electron shell): pino lines in
// <data dir>/logs/<process>.log (LOCI_LOG_DIR overrides; tests point it at a temporary folder), rotated
// by size and kept a few files deep, so a packaged app that shows nothing on a console still leaves a
// trace. Problems the user must see go through reportEngineError: logged here and handed to the host,
// which sends them to the UI as `engine.error` events.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import { dataDir } from './paths.js';

export type { Logger };

export function logDir(): string {
  return process.env.LOCI_LOG_DIR ?? join(dataDir(), 'logs');
}

const loggers = new Map<string, Logger>();

/** The logger of one process (`engine`, `server`, `shell`…), created on first use. */
export function getLogger(name: string): Logger {
  const existing = loggers.get(name);
  if (existing) return existing;
  const dir = logDir();
  let logger: Logger;
  try {
    mkdirSync(dir, { recursive: true });
    const stream = createStream(`${name}.log`, { path: dir, size: '5M', maxFiles: 5 });
    // A log that cannot be written must never take the process down.
    stream.on('error', () => {});
    logger = pino({ name, level: process.env.LOCI_LOG_LEVEL ?? 'info', base: { pid: process.pid } }, stream);
  } catch {
    logger = pino({ name, enabled: false });
  }
  loggers.set(name, logger);
  return logger;
}

export interface EngineProblem {
  /** What failed: 'embedder', 'model', 'watch', 'index'… */
  source: string;
  message: string;
}

const listeners = new Set<(p: EngineProblem) => void>();

/** Hosts subscribe to turn engine problems into UI events; returns the unsubscribe. */
export function onEngineError(listener: (p: EngineProblem) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A failure nobody awaits (a background embedder switch, a model load): log it and tell the hosts. */
export function reportEngineError(source: string, err: unknown): EngineProblem {
  const problem = { source, message: err instanceof Error ? err.message : String(err) };
  getLogger('engine').error({ source, err }, problem.message);
  if (listeners.size === 0) console.error(`loci: ${source}: ${problem.message}`);
  for (const l of listeners) l(problem);
  return problem;
}
