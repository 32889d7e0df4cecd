#!/usr/bin/env node
// Bundles everything the app runs, so nothing compiles TypeScript at run time (no tsx in a package):
// - out/main/app/main.js          the Electron main process
// - out/preload/preload.cjs       the preload (one CommonJS file: sandboxed preloads cannot load modules)
// - out/engine/engine-process.js  the engine's process (Electron utilityProcess, or Node with IPC)
// - out/engine/worker.mjs         the model worker the engine forks (beside the engine bundle, where
//                                 local-provider looks for it: './worker.mjs' from its own module)
// - out/engine/loci.js            the CLI, so `node out/engine/loci.js serve` is browser mode over the
//                                 very engine bundle that ships
// Packages stay external (resolved from node_modules at run time): the native ones (better-sqlite3,
// node-llama-cpp, onnxruntime-node, @node-rs/jieba) cannot be bundled, and electron-builder unpacks them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE_OPTIONS } from '../engine/dev-bundle.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const at = (p) => path.join(repo, p);

const node = {
  ...NODE_BUNDLE_OPTIONS,
  sourcemap: true,
  logLevel: 'warning',
};

await build({ ...node, entryPoints: [at('main/app/main.ts')], outfile: at('out/main/app/main.js'), target: 'node22', external: ['electron'] });

await build({
  entryPoints: [at('preload/preload.ts')],
  outfile: at('out/preload/preload.cjs'),
  bundle: true,
  platform: 'browser',
  format: 'cjs',
  target: 'chrome130',
  external: ['electron'],
  sourcemap: false,
  logLevel: 'warning',
});

await build({ ...node, entryPoints: [at('main/app/engine-process.ts')], outfile: at('out/engine/engine-process.js') });
await build({ ...node, entryPoints: [at('main/engine/llm/local/worker.mjs')], outfile: at('out/engine/worker.mjs') });
// The indexing workers' task, beside the engine bundle where main/engine/index-worker/pool.ts looks for it.
await build({ ...node, entryPoints: [at('main/engine/index-worker/prepare-task.ts')], outfile: at('out/engine/index-worker.js') });
await build({ ...node, entryPoints: [at('main/cli/index.ts')], outfile: at('out/engine/loci.js') });

console.log('Built out/main/app/main.js, out/preload/preload.cjs, out/engine/{engine-process.js,worker.mjs,index-worker.js,loci.js}');
