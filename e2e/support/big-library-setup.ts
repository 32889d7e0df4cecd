import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBigLibrary } from './big-library.js';
import { startServer } from './start-server.js';

// Second global setup: generates the ~2,000-note folder from the repo's notes (e2e/support/big-library.ts), indexes it ONCE with
// the CLI into its own database, and serves that database in browser mode for the UI journeys and the
// graph-scale spec (LOCI_E2E_BIG_URL). Runs only when one of those specs is part of the run.
const NEEDS_IT = /(ui-journeys|graph-scale|accessibility)\.spec\.ts/;

export default async function bigLibrarySetup(): Promise<(() => Promise<void>) | void> {
  const specs = process.argv.filter((a) => /\.spec\.ts$|^e2e\//.test(a));
  if (specs.length && !specs.some((s) => NEEDS_IT.test(s))) return;
  const started = Date.now();
  // LOCI_E2E_BIG_CACHE (a directory) keeps the folder and its index between local runs; CI builds fresh.
  const cache = process.env.LOCI_E2E_BIG_CACHE;
  const cached = cache && existsSync(path.join(cache, 'report.json')) ? (JSON.parse(readFileSync(path.join(cache, 'report.json'), 'utf8')) as { dir: string }) : null;
  let lib: { dir: string };
  let db: string;
  let report: { counts: { documents: number }; seconds: number };
  if (cache && cached && existsSync(cached.dir)) {
    lib = cached;
    db = path.join(cache, 'big.db');
    report = JSON.parse(readFileSync(path.join(cache, 'report.json'), 'utf8')) as typeof report;
    console.log(`[big library] reusing ${lib.dir} and its index from ${cache}`);
  } else {
    const built = buildBigLibrary();
    lib = built;
    if (cache) mkdirSync(cache, { recursive: true });
    db = path.join(cache ?? mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-bigdb-')), 'big.db');
    const index = spawnSync(process.execPath, ['bin/loci.mjs', 'index', '--db', db, '--json', lib.dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (index.status !== 0) throw new Error(`indexing the big library failed:\n${index.stderr}`);
    report = JSON.parse(index.stdout) as typeof report;
    console.log(`[big library] ${built.notes} notes (${built.generated} generated) in ${lib.dir}; indexed ${report.counts.documents} in ${report.seconds.toFixed(1)} s (setup ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    writeFileSync(path.join(path.dirname(db), 'report.json'), JSON.stringify({ ...report, dir: lib.dir }));
  }

  // The user's editor is a recorder here: the reading journey checks what "Open in editor" ran.
  process.env.LOCI_E2E_OPENED = path.join(path.dirname(db), 'opened.json');
  const editor = `${process.execPath} ${path.resolve('e2e/support/record-open.mjs')} {file} {line}`;
  const { url, stop } = await startServer([path.resolve('e2e/support/serve.mjs')], { LOCI_DB: db, LOCI_OPEN_COMMAND: editor });
  process.env.LOCI_E2E_BIG_URL = url;
  process.env.LOCI_E2E_BIG_DIR = lib.dir;
  process.env.LOCI_E2E_BIG_NOTES = String(report.counts.documents);
  return stop;
}
