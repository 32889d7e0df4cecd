import chokidar from 'chokidar';
import type { IndexReport } from '../api.js';

export interface FolderWatch {
  close(): Promise<void>;
}

const NOTE_FILE = /\.(md|markdown|txt)$/i;
const IGNORED = /(^|[/\\])(\.[^/\\]+|node_modules)([/\\]|$)/;

/**
 * Watches a notes folder and re-runs the (incremental) index after changes settle. Changes that arrive
 * while a run is in progress trigger exactly one more run afterwards, so nothing is missed.
 */
export function watchFolder(
  root: string,
  runIndex: () => Promise<IndexReport>,
  onReport: (r: IndexReport) => void,
  onError: (e: Error) => void = (e) => console.error(e),
  debounceMs = 300,
): FolderWatch {
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

  const watcher = chokidar.watch(root, {
    ignoreInitial: true,
    ignored: (path: string) => IGNORED.test(path.slice(root.length)),
    awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 },
  });
  watcher.on('all', (_event, path) => {
    if (!NOTE_FILE.test(path) && _event !== 'unlinkDir') return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  });
  watcher.on('error', (e) => onError(e instanceof Error ? e : new Error(String(e))));

  return {
    close: async () => {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
