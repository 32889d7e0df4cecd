#!/usr/bin/env node
// Bundles the Electron main process and the preload (esbuild). The preload must be one CommonJS file:
// sandboxed preloads cannot load modules. The engine process is not bundled (see engine-process.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

await build({
  entryPoints: [path.join(repo, 'main/app/main.ts')],
  outfile: path.join(repo, 'out/main/app/main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  external: ['electron'],
  sourcemap: true,
  logLevel: 'warning',
});

await build({
  entryPoints: [path.join(repo, 'preload/preload.ts')],
  outfile: path.join(repo, 'out/preload/preload.cjs'),
  bundle: true,
  platform: 'browser',
  format: 'cjs',
  target: 'chrome130',
  external: ['electron'],
  sourcemap: false,
  logLevel: 'warning',
});
console.log('Built out/main/app/main.js and out/preload/preload.cjs');
