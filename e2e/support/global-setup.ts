import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './start-server.js';

// Builds what ships — the UI (vite) and the engine, CLI and model worker bundles (main/app/build.mjs) —
// then starts one real browser-mode server from the bundled CLI (`node out/engine/loci.js serve`: no
// tsx, the same engine bundle the packaged app runs) on a fresh SQLite file, and hands its URL to the
// workers through the environment. Each spec opens that URL in a fresh browser context, so the URL's
// one-time code is allowed several uses here (a user's printed URL opens Loci once).
export default async function globalSetup(): Promise<() => Promise<void>> {
  // Always test the current sources, not a stale build.
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('vite build of the renderer failed');
  const bundles = spawnSync(process.execPath, ['main/app/build.mjs'], { stdio: 'inherit' });
  if (bundles.status !== 0) throw new Error('main/app/build.mjs (engine, worker and CLI bundles) failed');
  const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-db-')), 'e2e.db');
  const { url, stop } = await startServer(
    [path.resolve('out/engine/loci.js'), 'serve', '--db', db, '--port', '0', '--static', path.resolve('out/renderer'), '--url-uses', '50'],
    { LOCI_DB: db },
  );
  process.env.LOCI_E2E_URL = url;
  process.env.LOCI_E2E_DB = db;
  return stop;
}
