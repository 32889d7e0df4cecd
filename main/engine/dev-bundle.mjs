// From the sources (the CLI in a checkout, tests), TypeScript runs through tsx, whose loader resolves and
// transforms each of some 400 modules on every start: most of a second of each `loci` command and of each
// indexing worker's start. The packaged app runs bundles (main/app/build.mjs); from the sources the same
// kind of bundle is built with esbuild on first use and kept, in a `.dev-bundle` folder beside the entry
// (git-ignored, so packages resolve from the repo's node_modules), until a source file it was built from
// changes. Plain JavaScript, so `bin/loci.mjs` can use it before any TypeScript can be loaded.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';

const SELF = fileURLToPath(import.meta.url);

/**
 * How every Node bundle of Loci is built, here and for the packaged app (main/app/build.mjs): ESM for
 * Node 20, packages left to node_modules (the native ones cannot be bundled).
 * @type {import('esbuild').BuildOptions}
 */
export const NODE_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // Node's ESM resolver needs the file name where a package has no exports map (tsx guesses it).
  alias: { '@node-rs/jieba/dict': '@node-rs/jieba/dict.js' },
};

/**
 * A module of the bundle still sees its own source file as `import.meta.url` (and `dirname`,
 * `filename`), so code that finds files beside itself — the dev sets, the indexing worker's task, the
 * built UI — finds them as it does when run from the sources, not beside the bundle.
 * @type {import('esbuild').Plugin}
 */
const sourcePlaces = {
  name: 'source-places',
  setup(build) {
    build.onLoad({ filter: /\.[mc]?[jt]s$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      const ext = path.extname(args.path).slice(1);
      return { contents, loader: ext.endsWith('ts') ? 'ts' : 'js' };
    });
  },
};

/**
 * The path of a bundle of `entry` (a TypeScript or JavaScript module) and everything it imports from the
 * sources, packages left to node_modules; built now unless one built from the same sources is kept.
 * Null when esbuild is not at hand or the build fails (or the folder cannot be written): the caller then
 * runs the sources through tsx.
 * @param {string} entry
 * @returns {Promise<string | null>}
 */
export async function devBundle(entry) {
  const dir = path.join(path.dirname(entry), '.dev-bundle');
  const name = path.basename(entry).replace(/\.[^.]+$/, '');
  const bundle = path.join(dir, `${name}.mjs`);
  const inputsFile = path.join(dir, `${name}.inputs.json`);
  // Written under a name of this thread's and renamed: two processes or threads building at once never
  // load a half-written file.
  const me = `${process.pid}-${threadId}`;
  const temp = `${bundle}.${me}.tmp.mjs`;
  try {
    if (existsSync(bundle) && upToDate(inputsFile)) return bundle;
    /** @type {typeof import('esbuild')} */
    const esbuild = createRequire(import.meta.url)('esbuild');
    mkdirSync(dir, { recursive: true });
    const result = await esbuild.build({
      absWorkingDir: dir,
      entryPoints: [entry],
      outfile: temp,
      ...NODE_BUNDLE_OPTIONS,
      plugins: [sourcePlaces],
      metafile: true,
      logLevel: 'silent',
    });
    // This file too: a bundle built otherwise is built again.
    /** @type {Record<string, string>} */
    const inputs = { [SELF]: stamp(SELF) };
    for (const input of Object.keys(result.metafile.inputs)) {
      const file = path.resolve(dir, input);
      inputs[file] = stamp(file);
    }
    renameSync(temp, bundle);
    writeFileSync(`${inputsFile}.${me}.tmp`, JSON.stringify(inputs));
    renameSync(`${inputsFile}.${me}.tmp`, inputsFile);
    return bundle;
  } catch {
    // A rename refused (Windows, while another process has the bundle open) leaves no temp file behind.
    try {
      rmSync(temp, { force: true });
    } catch {
      // Left for the next build to overwrite.
    }
    return null;
  }
}

/** @param {string} file */
function stamp(file) {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
}

/**
 * Every source the bundle was built from is still as it was then.
 * @param {string} inputsFile
 */
function upToDate(inputsFile) {
  if (!existsSync(inputsFile)) return false;
  /** @type {Record<string, string>} */
  const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  return Object.entries(inputs).every(([file, was]) => existsSync(file) && stamp(file) === was);
}
