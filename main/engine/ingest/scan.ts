import { statSync, type Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SkippedFile } from '../types.js';
import { describeError } from './describe-error.js';
import { isInsideReal } from './contain.js';

export interface ScannedFile {
  /** Path from the scanned root, always with forward slashes. */
  relPath: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface ScanOptions {
  /** Files larger than this are reported as skipped ('too-large'). Default 5 MB. */
  maxBytes?: number;
  /** Stops the walk between entries (the scan of a big tree can take seconds). */
  signal?: AbortSignal;
  /** The folder's scope: true when a path (relative, '/'-separated; directories end with '/') is left out. */
  excluded?: (relPath: string, isDir: boolean) => boolean;
  /** A folder with more notes or directories than this is refused (a system tree, not a notes folder). */
  limits?: Partial<ScanLimits>;
}

export interface ScanLimits {
  notes: number;
  directories: number;
}

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_SCAN_LIMITS: ScanLimits = { notes: 100_000, directories: 50_000 };

/** The scan stopped because the folder is far larger than a notes folder; nothing of it should be saved. */
export class ScanLimitError extends Error {
  constructor(root: string, what: string) {
    super(`${root} holds more than ${what}: too large to be a notes folder. Pick the folder that holds your notes.`);
    this.name = 'ScanLimitError';
  }
}

const OUTSIDE = 'a link leading outside the library folder (not followed)';
const NOTE_EXTENSIONS = new Set(['.md', '.markdown', '.txt']);
const IGNORED_DIRS = new Set(['node_modules']);
/** Notes stat'ed per turn of the event loop. */
const STAT_BATCH = 256;

export function isNotePath(name: string): boolean {
  return NOTE_EXTENSIONS.has(path.extname(name).toLowerCase());
}

/**
 * Lists the notes under `root` (which must exist and be listable, else it throws). Never throws for
 * a problem below the root: unreadable directories, dangling links, FIFOs and sockets named like
 * notes are reported in `skipped` instead, so one bad entry cannot stop an index run. A symlink is
 * followed only when its real path stays inside the root (see contain.ts), and a link back into an
 * already visited directory is ignored, which breaks loops. Throws ScanLimitError past the limits and
 * the signal's reason when aborted.
 */
export async function scanFolder(
  root: string,
  opts: ScanOptions = {},
): Promise<{ files: ScannedFile[]; skipped: SkippedFile[] }> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const files: ScannedFile[] = [];
  const skipped: SkippedFile[] = [];
  const visitedDirs = new Set<string>();
  const absRoot = path.resolve(root);
  const realRoot = await realpath(absRoot);
  const limits = { ...DEFAULT_SCAN_LIMITS, ...opts.limits };
  const excluded = opts.excluded ?? (() => false);
  let notesSeen = 0;

  const relOf = (abs: string) => path.relative(absRoot, abs).split(path.sep).join('/');

  async function walk(dir: string): Promise<void> {
    let real: string;
    try {
      real = await realpath(dir);
    } catch (err) {
      if (dir === absRoot) throw err;
      skipped.push({ relPath: relOf(dir), reason: 'unreadable', detail: describeError(err) });
      return;
    }
    if (visitedDirs.has(real)) return;
    visitedDirs.add(real);
    if (visitedDirs.size > limits.directories) throw new ScanLimitError(absRoot, `${limits.directories} directories`);

    // The whole listing in one call: iterating a directory handle costs a promise per entry.
    let handle;
    try {
      handle = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (dir === absRoot) throw err;
      skipped.push({ relPath: relOf(dir), reason: 'unreadable', detail: describeError(err) });
      return;
    }
    const subdirs: string[] = [];
    const notes: { abs: string; rel: string }[] = [];
    // Entries' paths are the directory's plus their name: path.join and path.relative per file were a
    // quarter of a 10k-note scan (the one-note re-index's largest step after the graph).
    const dirRel = relOf(dir);
    const dirPrefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    try {
      for (const entry of handle) {
        opts.signal?.throwIfAborted();
        if (entry.name.startsWith('.') || IGNORED_DIRS.has(entry.name)) continue;
        const abs = dirPrefix + entry.name;
        const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (!excluded(rel + '/', true)) subdirs.push(abs);
          continue;
        }
        if (entry.isSymbolicLink()) {
          await visitLink(abs, subdirs);
          continue;
        }
        if (!isNotePath(entry.name) || excluded(rel, false)) continue;
        if (!entry.isFile()) {
          skipped.push({ relPath: rel, reason: 'unreadable', detail: 'not a regular file' });
          continue;
        }
        if (++notesSeen > limits.notes) throw new ScanLimitError(absRoot, `${limits.notes} notes`);
        notes.push({ abs, rel });
      }
    } catch (err) {
      if (err instanceof ScanLimitError || opts.signal?.aborted) throw err;
      skipped.push({ relPath: relOf(dir), reason: 'unreadable', detail: describeError(err) });
    }
    // A directory's notes are stat'ed synchronously, a batch per turn of the event loop: a promise per
    // file costs a round trip to the thread pool each (at 10k notes, most of an unchanged re-run), a
    // local stat a few microseconds.
    for (let i = 0; i < notes.length; i += STAT_BATCH) {
      opts.signal?.throwIfAborted();
      if (i > 0) await new Promise<void>((r) => setImmediate(r));
      for (const { abs, rel } of notes.slice(i, i + STAT_BATCH)) record(abs, rel, statNow(abs));
    }
    for (const sub of subdirs.sort()) await walk(sub);
  }

  async function visitLink(abs: string, subdirs: string[]): Promise<void> {
    let target;
    let real;
    try {
      real = await realpath(abs);
      target = await stat(real);
    } catch (err) {
      if (isNotePath(abs)) skipped.push({ relPath: relOf(abs), reason: 'unreadable', detail: describeError(err) });
      return;
    }
    const rel = relOf(abs);
    if (target.isDirectory()) {
      if (excluded(rel + '/', true)) return;
      if (isInsideReal(realRoot, real)) subdirs.push(abs);
      else skipped.push({ relPath: rel, reason: 'unsupported', detail: OUTSIDE });
      return;
    }
    if (!isNotePath(abs) || excluded(rel, false)) return;
    if (!isInsideReal(realRoot, real)) {
      skipped.push({ relPath: rel, reason: 'unsupported', detail: OUTSIDE });
      return;
    }
    if (target.isFile()) await addFile(abs);
    else skipped.push({ relPath: rel, reason: 'unreadable', detail: 'not a regular file' });
  }

  async function addFile(abs: string): Promise<void> {
    if (++notesSeen > limits.notes) throw new ScanLimitError(absRoot, `${limits.notes} notes`);
    const [st] = await Promise.allSettled([stat(abs)]);
    record(abs, relOf(abs), st);
  }

  function statNow(abs: string): PromiseSettledResult<Stats> {
    try {
      return { status: 'fulfilled', value: statSync(abs) };
    } catch (reason) {
      return { status: 'rejected', reason };
    }
  }

  function record(abs: string, rel: string, st: PromiseSettledResult<Stats>): void {
    if (st.status === 'rejected') {
      skipped.push({ relPath: rel, reason: 'unreadable', detail: describeError(st.reason) });
      return;
    }
    const { size, mtimeMs } = st.value;
    if (size > maxBytes) {
      skipped.push({ relPath: rel, reason: 'too-large', detail: `${size} bytes is over the ${maxBytes}-byte limit` });
      return;
    }
    files.push({ relPath: rel, absPath: abs, size, mtimeMs });
  }

  await walk(absRoot);
  files.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return { files, skipped };
}
