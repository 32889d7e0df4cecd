#!/usr/bin/env node
// `npm start`: the desktop app on the bundled sample notes. Where the Electron binary is not installed it is
// downloaded on first start (bin/electron-binary.mjs); where it cannot be (offline, or
// ELECTRON_SKIP_BINARY_DOWNLOAD set as on CI) start says why and serves browser mode instead.
//   npm start -- [--browser] [--folder dir] [--db file] [--port n]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { electronPlan, installedElectron, installElectron } from './electron-binary.mjs';
import { ensureElectronSqlite } from './electron-sqlite.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    browser: { type: 'boolean', default: false },
    folder: { type: 'string', default: path.join(repo, 'resources', 'sample-notes') },
    db: { type: 'string', default: path.join(repo, '.loci', 'sample.db') },
    port: { type: 'string' },
  },
});

if (!existsSync(args.folder)) {
  console.error(`loci start: the notes folder ${args.folder} does not exist.`);
  process.exit(1);
}

const { register } = await import('tsx/esm/api');
register();
const { ensureRendererBuilt } = await import('../main/server/build-ui.ts');
await ensureRendererBuilt();
const plan = electronPlan({ browser: args.browser, installed: installedElectron(), env: process.env });
const installed = plan.action === 'install' ? await installElectron() : plan;
// The engine runs inside Electron, so it needs SQLite's binding built for Electron's ABI, not Node's.
const sqlite = installed.bin ? await ensureElectronSqlite(createRequire(import.meta.url)('electron/package.json').version) : null;

if (installed.bin && sqlite?.binding) {
  const r = spawnSync(process.execPath, [path.join(repo, 'main', 'app', 'build.mjs')], { cwd: repo, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  const child = spawn(installed.bin, [repo], {
    cwd: repo,
    stdio: 'inherit',
    env: { ...process.env, LOCI_FOLDER: path.resolve(args.folder), LOCI_DB: path.resolve(args.db), LOCI_SQLITE_BINDING: sqlite.binding },
  });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  if (sqlite?.reason) console.log(`The desktop app cannot start yet: ${sqlite.reason}`);
  else console.log(`Electron is not available: the desktop app needs the Electron binary, and ${installed.reason.split('\n')[0]}`);
  console.log('Starting browser mode instead: the same UI, served on 127.0.0.1.');
  const { runServe } = await import('../main/cli/commands/serve.ts');
  await runServe({ folder: args.folder, db: args.db, port: args.port ? Number(args.port) : undefined });
}
