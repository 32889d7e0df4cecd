import type { BuildOptions } from 'esbuild';

/** See dev-bundle.mjs: a kept esbuild bundle of `entry` and the sources it imports, or null (run through tsx). */
export function devBundle(entry: string): Promise<string | null>;
/** See dev-bundle.mjs: how every Node bundle of Loci is built. */
export const NODE_BUNDLE_OPTIONS: BuildOptions;
