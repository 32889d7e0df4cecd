// Wires an opened engine to the browser-mode server: dispatcher, events, optional first folder, and a
// shutdown that stops index runs and watchers before the engine closes (safe mid-index).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDispatcher, validatedEmit } from '../contract/dispatcher.js';
import { composeHost } from '../host/compose.js';
import type { LociEngine } from '../engine/engine.js';
import { getLogger } from '../engine/log.js';
import { startServer, type RunningServer } from './server.js';

export const DEFAULT_STATIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../out/renderer');

export interface BrowserModeOptions {
  engine: LociEngine;
  port?: number;
  staticDir?: string;
  /** Index this folder in the background once the server is up, then keep watching it. */
  folder?: string;
  token?: string;
  /** How many browser contexts one printed URL may open (tests); default 1. */
  openUrlUses?: number;
  version?: string;
  log?: (line: string) => void;
}

export interface BrowserMode {
  server: RunningServer;
  /** Resolves when the initial folder (if any) is indexed. */
  initialIndex: Promise<void>;
  close(): Promise<void>;
}

export async function startBrowserMode(opts: BrowserModeOptions): Promise<BrowserMode> {
  const log = opts.log ?? ((line) => console.log(line));
  let server: RunningServer | null = null;
  const emit = validatedEmit((event, payload) => server?.broadcast(event, payload));
  const host = composeHost({ engine: opts.engine, emit, host: { host: 'browser', canPickFolder: false, version: opts.version ?? '0.0.0' } });
  const dispatcher = createDispatcher(host.handlers, undefined, (call, err) => getLogger('server').error({ call, err }, 'call failed inside the engine'));
  server = await startServer({ dispatcher, staticDir: opts.staticDir ?? DEFAULT_STATIC_DIR, port: opts.port, token: opts.token, openUrlUses: opts.openUrlUses });

  host.watchLibrary();
  const initialIndex = opts.folder
    ? dispatcher.dispatch('library.index', { root: path.resolve(opts.folder), watch: true }).then(async (r) => {
        // Another Loci process is writing the index (a click is refused; a command line's folder waits for it).
        if (!r.ok && r.error.code === 'locked' && opts.folder) {
          log(`loci: ${r.error.message.replace(/^loci call "[^"]+" failed: /, '')} Waiting for it…`);
          const root = path.resolve(opts.folder);
          r = await opts.engine.library.index(root, { waitForWriter: true }).then(
            () => (host.watch(root), { ok: true as const, result: null }),
            (err: unknown) => ({ ok: false as const, error: { kind: 'engine' as const, message: err instanceof Error ? err.message : String(err) } }),
          );
        }
        if (!r.ok) {
          log(`loci: indexing ${opts.folder} failed: ${r.error.message}`);
          getLogger('server').warn({ folder: opts.folder, error: r.error }, 'initial index failed');
        }
      })
    : Promise.resolve();

  const running = server;
  return {
    server: running,
    initialIndex,
    async close() {
      host.stop();
      await running.close();
      await opts.engine.close();
    },
  };
}
