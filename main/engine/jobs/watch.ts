import chokidar from 'chokidar';
import type { Stats } from 'node:fs';
import { sep } from 'node:path';
import type { IndexReport } from '../api.js';

export interface FolderWatch {
  close(): Promise<void>;
  /** Resolves once the initial walk is done and changes are seen. */
  ready?: Promise<void>;
  /** How many directories are being watched (bounded by the folder: links are not followed). */
  watchedDirectories?(): number;
}

const NOTE_FILE = /\.(md|markdown|txt)$/i;
const IGNORED = /(^|[/\\])(\.[^/\\]+|node_modules)([/\\]|$)/;

/**
 * Watches a notes folder and re-runs the (incremental) index after changes settle. Changes that arrive
 * while a run is in progress trigger exactly one more run afterwards, so nothing is missed.
 */
export interface WatchOptions {
  debounceMs?: number;
  /** The folder's scope: true when a path (relative, '/'-separated; directories end in '/') is left out. */
  excluded?: (relPath: string, isDir: boolean) => boolean;
  /** How deep below the root changes are seen (bounds the watcher on a deep tree). */
  depth?: number;
}

/**
 * Watches a notes folder and re-runs the (incremental) index after changes settle. Changes that arrive
 * while a run is in progress trigger exactly one more run afterwards, so nothing is missed. Links are
 * never followed (a link to / would make the watcher walk the whole machine); the scan decides which
 * links inside the folder count.
 */
export function watchFolder(
  root: string,
  runIndex: () => Promise<IndexReport>,
  onReport: (r: IndexReport) => void,
  onError: (e: Error) => void = (e) => console.error(e),
  opts: WatchOptions = {},
): FolderWatch {
  const debounceMs = opts.debounceMs ?? 300;
  const excluded = opts.excluded ?? (() => false);
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let again = false;

  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        onReport(await runIndex());
      } while (again);
    } catch (err) {
      onError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      running = false;
    }
  };

  const rel = (p: string) => p.slice(root.length).split(sep).join('/').replace(/^\//, '');
  const watcher = chokidar.watch(root, {
    ignoreInitial: true,
    followSymlinks: false,
    depth: opts.depth ?? 32,
    ignorePermissionErrors: true,
    ignored: (path: string, stats?: Stats) => {
      if (IGNORED.test(path.slice(root.length))) return true;
      const r = rel(path);
      if (r === '') return false;
      // Without stats chokidar asks before it knows the kind: judge by the name (notes have an extension).
      const isDir = stats ? stats.isDirectory() : !NOTE_FILE.test(path);
      return excluded(isDir ? `${r}/` : r, isDir);
    },
    awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
  });
  watcher.on('all', (_event, path) => {
    if (!NOTE_FILE.test(path) && _event !== 'unlinkDir') return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  });
  watcher.on('error', (e) => onError(e instanceof Error ? e : new Error(String(e))));

  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    watchedDirectories: () => Object.keys(watcher.getWatched()).length,
    close: async () => {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
