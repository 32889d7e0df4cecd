/** See dev-bundle.mjs: a kept esbuild bundle of `entry` and the sources it imports, or null (run through tsx). */
export function devBundle(entry: string): Promise<string | null>;
