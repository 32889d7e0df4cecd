import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Starts one real `loci serve` (real engine, fresh SQLite file) for the browser-mode specs and hands
// its tokened URL to the workers through the environment.
export default async function globalSetup(): Promise<() => Promise<void>> {
  // Always test the current UI sources, not a stale build.
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('vite build of the renderer failed');
  const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-db-')), 'e2e.db');
  const child = spawn(process.execPath, [path.resolve('e2e/support/serve.mjs')], {
    env: { ...process.env, LOCI_DB: db },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`loci serve printed no URL in 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`loci serve exited (${code}):\n${out}`)));
  });
  process.env.LOCI_E2E_URL = url;
  process.env.LOCI_E2E_DB = db;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
}
