#!/usr/bin/env node
// The `loci` command, from the sources, with no build step: a bundle of them built on first use and kept
// until a source changes (main/engine/dev-bundle.mjs; each command starts in about half the time tsx
// takes), else the TypeScript through tsx. LOCI_DEV_BUNDLE=0 always runs through tsx.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { devBundle } from '../main/engine/dev-bundle.mjs';

const cli = fileURLToPath(new URL('../main/cli/index.ts', import.meta.url));
const bundle = process.env.LOCI_DEV_BUNDLE === '0' ? null : await devBundle(cli);
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(cli).href);
}
