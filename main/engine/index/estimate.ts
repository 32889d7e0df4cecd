// How long indexing a library would take with an embedder, before the user commits to it: the real index
// run (fast mode, the code `loci index` runs) over a sample of the library's notes, in a temporary
// database, timed on this machine and extrapolated by the library's size in bytes.
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEmbedder } from '../embed/registry.js';
import type { Embedder } from '../embed/embedder.js';
import { scanFolder, type ScannedFile } from '../ingest/scan.js';
import { openIndex } from '../store/db.js';
import { indexFolder } from './run.js';
import { MIN_NOTES_FOR_WORKERS } from './note-pipeline.js';
import type { ProbeResult } from '../api.js';

export interface LibraryFolder {
  root: string;
  /** The folder's scope: true when a path is left out. */
  excluded?: (relPath: string, isDir: boolean) => boolean;
}

/** The notes an index run of the library would read. */
export interface LibrarySize {
  notes: number;
  bytes: number;
  files: ScannedFile[];
}

export interface ProbeOptions {
  /** Seconds the measured runs aim at (sized from the first one's rate). Default 8. */
  budgetSeconds?: number;
  /** At most this share of the library's notes is indexed by the probe. Default 0.25. */
  maxShare?: number;
  signal?: AbortSignal;
  maxBytes?: number;
}

const DEFAULT_BUDGET_SECONDS = 8;
const DEFAULT_MAX_SHARE = 0.25;
/**
 * Notes of the first, untimed-for-the-rate warm-up run. It pays the lazy set-up, and a model's runtime
 * keeps growing its buffers over its first few hundred texts (the same passages embedded again ran 20%
 * faster by the third pass): measured on two notes, the rate read 1.6–2× the full run's.
 */
const WARM_UP_NOTES = 8;
/** The first measured run's notes: one odd note does not set the rate, and the second run is sized by it. */
const MIN_MEASURED_NOTES = 3;

/** Scans the library's folders as an index run would (scope, size limit), reading no note. */
export async function measureLibrary(folders: readonly LibraryFolder[], opts: { maxBytes?: number; signal?: AbortSignal } = {}): Promise<LibrarySize> {
  const files: ScannedFile[] = [];
  for (const f of folders) files.push(...(await scanFolder(f.root, { excluded: f.excluded, maxBytes: opts.maxBytes, signal: opts.signal })).files);
  return { notes: files.length, bytes: files.reduce((s, f) => s + f.size, 0), files };
}

/**
 * The library's notes in an order whose every prefix spreads over their sizes (a van der Corput sequence
 * over the notes sorted by size): a probe that stops after any number of them has small, middling and
 * large notes in about the library's proportions.
 */
export function sampleOrder<T extends { size: number }>(files: readonly T[]): T[] {
  const sorted = [...files].sort((a, b) => a.size - b.size);
  const out: T[] = [];
  const taken = new Set<number>();
  // 1/2, 1/4, 3/4, 1/8…: the median first, then ever finer between; past 4n steps every index was met.
  for (let k = 1; k <= 4 * sorted.length && out.length < sorted.length; k++) {
    let x = 0;
    for (let bit = 0.5, n = k; n > 0; n >>= 1, bit /= 2) if (n & 1) x += bit;
    const i = Math.floor(x * sorted.length);
    if (taken.has(i)) continue;
    taken.add(i);
    out.push(sorted[i]!);
  }
  for (let i = 0; i < sorted.length; i++) if (!taken.has(i)) out.push(sorted[i]!);
  return out;
}

/**
 * Times the real index run with the embedder `spec` on a sample of the library: the embedder is loaded
 * (timed), a warm-up run indexes eight middling notes, then two measured runs index further notes (spread
 * over sizes) as fit in the budget, into the same temporary database. The
 * user's index and folders are never written; the temporary copy is removed.
 */
export async function probeIndexTime(spec: string, library: LibrarySize, opts: ProbeOptions = {}, load: (spec: string) => Promise<Embedder> = createEmbedder): Promise<ProbeResult> {
  const started = performance.now();
  const budget = opts.budgetSeconds ?? DEFAULT_BUDGET_SECONDS;
  const cap = Math.max(WARM_UP_NOTES + MIN_MEASURED_NOTES, Math.floor(library.notes * (opts.maxShare ?? DEFAULT_MAX_SHARE)));
  const order = sampleOrder(library.files);
  const work = await mkdtemp(join(tmpdir(), 'loci-estimate-'));
  const notes = join(work, 'notes');
  await mkdir(notes);
  const { db } = openIndex(join(work, 'probe.db'));
  let embedder: Embedder | null = null;
  try {
    const t0 = performance.now();
    embedder = await load(spec);
    const loadSeconds = (performance.now() - t0) / 1000;
    const run = async (batch: ScannedFile[]) => {
      opts.signal?.throwIfAborted();
      // Under numbered folders: notes of two library folders may share a relative path.
      await Promise.all(batch.map(async (f) => {
        const to = join(notes, String(library.files.indexOf(f)), f.relPath);
        await mkdir(dirname(to), { recursive: true });
        await copyFile(f.absPath, to);
      }));
      const t = performance.now();
      await indexFolder(db, embedder!, notes, { signal: opts.signal, maxBytes: opts.maxBytes });
      return { seconds: (performance.now() - t) / 1000, bytes: batch.reduce((s, f) => s + f.size, 0) };
    };
    // The warm-up pays the lazy set-up (parsers, taggers, the model's first calls) on middling notes.
    const warmUpNotes = order.slice(0, Math.min(WARM_UP_NOTES, order.length));
    const warm = warmUpNotes.length ? await run(warmUpNotes) : { seconds: 0, bytes: 0 };
    const rest = order.slice(warmUpNotes.length, cap);
    // Two measured runs: a few notes give the rate without the set-up, then as many more as fit in what is
    // left of the budget at that rate. Below the pipeline's worker threshold, so the time of starting
    // workers is not spread over the library as if every note paid it.
    const first = rest.slice(0, MIN_MEASURED_NOTES);
    const a = first.length ? await run(first) : null;
    const rateA = a && a.bytes > 0 ? a.seconds / a.bytes : warm.seconds / Math.max(1, warm.bytes);
    const more: ScannedFile[] = [];
    let moreBytes = 0;
    for (const f of rest.slice(first.length, first.length + MIN_NOTES_FOR_WORKERS - 1)) {
      if ((moreBytes + f.size) * rateA > budget - (a?.seconds ?? 0)) break;
      more.push(f);
      moreBytes += f.size;
    }
    const b = more.length ? await run(more) : null;
    const measuredBytes = (a?.bytes ?? 0) + (b?.bytes ?? 0);
    const secondsPerByte = measuredBytes > 0 ? ((a?.seconds ?? 0) + (b?.seconds ?? 0)) / measuredBytes : warm.seconds / Math.max(1, warm.bytes);
    return {
      loadSeconds,
      setupSeconds: Math.max(0, warm.seconds - secondsPerByte * warm.bytes),
      secondsPerByte,
      sampleNotes: warmUpNotes.length + first.length + more.length,
      sampleBytes: warm.bytes + measuredBytes,
      probeSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await embedder?.dispose?.();
    db.close();
    await rm(work, { recursive: true, force: true });
  }
}

/** Seconds to index `library` from scratch with the probed embedder: load and set-up once, then its size at the measured rate. */
export function extrapolate(probe: ProbeResult, library: Pick<LibrarySize, 'bytes' | 'notes'>): number {
  if (library.notes === 0) return 0;
  return probe.loadSeconds + probe.setupSeconds + probe.secondsPerByte * library.bytes;
}
