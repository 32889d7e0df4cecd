// `loci serve`: browser mode — the desktop UI served on 127.0.0.1 with a per-run token.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { defaultDbPath } from '../../engine/paths.js';
import type { BrowserMode } from '../../server/browser-mode.js';
import { termField, termText } from '../terminal.js';

export interface ServeOptions {
  db?: string;
  folder?: string;
  port?: number;
  staticDir?: string;
  embedder?: string;
  /** How many browser contexts one printed URL may open (the e2e setup opens several); default 1. */
  openUrlUses?: number;
}

/** Opens the engine and serves the UI; used by `loci serve` and by `npm start` without Electron. */
export async function runServe(opts: ServeOptions): Promise<BrowserMode> {
  // Loaded on use, so `loci --help` and other commands do not pay for the engine and the server.
  const [{ LociEngine }, { startBrowserMode }, { ensureRendererBuilt }] = await Promise.all([
    import('../../engine/engine.js'),
    import('../../server/browser-mode.js'),
    import('../../server/build-ui.js'),
  ]);
  if (!opts.staticDir) await ensureRendererBuilt();
  const dbPath = path.resolve(opts.db ?? process.env.LOCI_DB ?? defaultDbPath());
  mkdirSync(path.dirname(dbPath), { recursive: true });
  const engine = await LociEngine.open({ dbPath, embedder: opts.embedder });
  const mode = await startBrowserMode({
    engine,
    port: opts.port,
    folder: opts.folder,
    staticDir: opts.staticDir,
    openUrlUses: opts.openUrlUses,
    version: '0.1.0',
  });
  console.log(`Loci is serving ${termField(dbPath)}`);
  // A read-only index, a fallback embedder: said here as well as in the page.
  for (const warning of engine.events.warnings()) console.error(termText(`loci: ${warning}`));
  if (opts.folder) console.log(`Indexing ${termField(path.resolve(opts.folder))} in the background (watching for changes).`);
  console.log(`Open this URL (it opens Loci once; press Enter here for another):\n  ${mode.server.openUrl}`);
  // Each printed URL is spent when a page loads it, so the one in the browser history opens nothing.
  const onLine = () => console.log(`  ${mode.server.newOpenUrl()}`);
  if (process.stdin.isTTY) {
    process.stdin.on('data', onLine);
    process.stdin.unref();
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`\n${signal}: stopping indexing and closing the index…`);
    mode.close().then(
      () => process.exit(0),
      (err) => {
        console.error(termText(`loci serve: ${err instanceof Error ? err.message : String(err)}`));
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return mode;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Serve the Loci UI in a browser on 127.0.0.1 (browser mode), with a per-run access token.')
    .option('--db <file>', 'index database', defaultDbPath())
    .option('--folder <dir>', 'index this notes folder now and keep it current')
    .option('--port <n>', 'port (default: a free one)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--port must be 0–65535, got ${v}`);
      return n;
    })
    .option('--static <dir>', 'built renderer directory (default: out/renderer)')
    .option('--embedder <name>', 'embedder to use')
    .option('--url-uses <n>', 'how many browsers one printed URL may open (default 1: a used URL opens nothing)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error(`--url-uses must be 1–1000, got ${v}`);
      return n;
    })
    .action(async (o: { db: string; folder?: string; port?: number; static?: string; embedder?: string; urlUses?: number }) => {
      await runServe({ db: o.db, folder: o.folder, port: o.port, staticDir: o.static, embedder: o.embedder, openUrlUses: o.urlUses });
      // Keeps running until SIGINT/SIGTERM.
      await new Promise<never>(() => {});
    });
}
