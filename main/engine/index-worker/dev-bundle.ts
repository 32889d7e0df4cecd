import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * From the sources (the CLI, tests), the engine runs TypeScript through tsx, and a worker started on
 * worker-entry.mjs loads every module through tsx's loader thread: most of a second of each worker's
 * start, on the indexing run's clock. The packaged app starts its workers on a bundle (main/app/build.mjs
 * builds index-worker.js); here the same bundle is built with esbuild on first use and kept, in a
 * `.dev-bundle` folder beside the task (git-ignored, so packages resolve from the repo's node_modules),
 * until a source file it was built from changes.
 *
 * Returns the bundle's path, or null when esbuild is not at hand or the build fails: the caller then
 * starts workers through tsx as before.
 */
export function devWorkerBundle(task: string): string | null {
  const dir = path.join(path.dirname(task), '.dev-bundle');
  const name = path.basename(task).replace(/\.[^.]+$/, '');
  const bundle = path.join(dir, `${name}.mjs`);
  const inputsFile = path.join(dir, `${name}.inputs.json`);
  try {
    if (existsSync(bundle) && upToDate(inputsFile)) return bundle;
    const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
    mkdirSync(dir, { recursive: true });
    // Written under a name of this thread's and renamed: two processes or threads building at once never
    // load a half-written file.
    const me = `${process.pid}-${threadId}`;
    const temp = `${bundle}.${me}.tmp.mjs`;
    const result = esbuild.buildSync({
      absWorkingDir: dir,
      entryPoints: [task],
      outfile: temp,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      // As in main/app/build.mjs: Node's ESM resolver needs the file name where a package has no exports map.
      alias: { '@node-rs/jieba/dict': '@node-rs/jieba/dict.js' },
      metafile: true,
      logLevel: 'silent',
    });
    const inputs: Record<string, string> = {};
    for (const input of Object.keys(result.metafile.inputs)) {
      const file = path.resolve(dir, input);
      inputs[file] = stamp(file);
    }
    renameSync(temp, bundle);
    writeFileSync(`${inputsFile}.${me}.tmp`, JSON.stringify(inputs));
    renameSync(`${inputsFile}.${me}.tmp`, inputsFile);
    return bundle;
  } catch {
    return null;
  }
}

function stamp(file: string): string {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
}

/** Every source the bundle was built from is still as it was then. */
function upToDate(inputsFile: string): boolean {
  if (!existsSync(inputsFile)) return false;
  const inputs = JSON.parse(readFileSync(inputsFile, 'utf8')) as Record<string, string>;
  return Object.entries(inputs).every(([file, was]) => existsSync(file) && stamp(file) === was);
}
