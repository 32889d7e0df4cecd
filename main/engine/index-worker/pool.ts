import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { PrepareResult, PrepareTask } from './prepare-note.js';
import type { NeighbourTask } from './neighbour-task.js';
import type { Scored } from '../embed/vector-matrix.js';
import { computedCommonComponents } from '../embed/static-embedder.js';
import type { IndexWorkerData } from './prepare-task.js';
import { devBundle } from '../dev-bundle.mjs';

/**
 * Threads that prepare notes (parse, extract, segment) while the engine's own thread writes: one per core
 * minus one, left for the writer, the UI's calls and queries. LOCI_INDEX_WORKERS overrides (0 = none).
 */
export function workerCount(): number {
  const forced = process.env.LOCI_INDEX_WORKERS;
  if (forced !== undefined && forced !== '' && Number.isFinite(Number(forced))) return Math.max(0, Math.floor(Number(forced)));
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The worker's entry file. A packaged build puts the bundled task at `index-worker.js` beside the engine
 * bundle (this module's own file); from the sources (the CLI, tests) the same bundle is built on first use
 * (dev-bundle.mjs), and failing that the TypeScript runs through tsx via worker-entry.mjs.
 */
async function workerFile(): Promise<string> {
  const bundled = fileURLToPath(new URL('./index-worker.js', import.meta.url));
  if (existsSync(bundled)) return bundled;
  const task = fileURLToPath(new URL('./prepare-task.ts', import.meta.url));
  return (existsSync(task) ? await devBundle(task) : null) ?? fileURLToPath(new URL('./worker-entry.mjs', import.meta.url));
}

export interface NotePool {
  prepare(task: PrepareTask): Promise<PrepareResult[]>;
  neighbours(task: NeighbourTask): Promise<Map<number, Scored[]>>;
  close(): Promise<void>;
}

export function openNotePool(threads = workerCount()): NotePool {
  // Started when the worker's file is known: from the sources its bundle may be built first.
  const started = workerFile().then((filename) => new Piscina({
    filename,
    minThreads: threads,
    maxThreads: threads,
    // Workers stay for the whole run; each builds its NLP and tokenizer objects once.
    idleTimeout: 60_000,
    // A second task is handed over while the first runs: otherwise a worker that finishes while this
    // thread is inside a write transaction waits for it to end before it is given more notes.
    concurrentTasksPerWorker: 2,
    // What this thread already computed of the built-in embedder's model (see prepare-task.ts).
    workerData: { commonComponents: computedCommonComponents() } satisfies IndexWorkerData,
  }));
  return {
    prepare: async (task) => (await started).run(task) as Promise<PrepareResult[]>,
    neighbours: async (task) => (await started).run(task) as Promise<Map<number, Scored[]>>,
    close: async () => (await started).destroy(),
  };
}
