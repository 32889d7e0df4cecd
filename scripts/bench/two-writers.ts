// Issue 43's scenario as real processes: two `loci index` runs on one index, the second started a second
// after the first, over 5,000 notes; then `loci check`, and the counts against a fresh index of the same
// folder (one process alone), with the wall time of each.
//   npx tsx scripts/bench/two-writers.ts [--notes 5000 | --news <n> | <notes folder>] [--offset-ms 1000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeGeneratedNotes } from '../../test/support/generated-notes.js';
import { benchNotes } from './notes.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const folderArg = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const offsetMs = Number(flag('--offset-ms') ?? 1000);
const LOCI = resolve(import.meta.dirname, '../../bin/loci.mjs');

interface Run {
  code: number | null;
  seconds: number;
  stdout: string;
  stderr: string;
}

function loci(...argv: string[]): Promise<Run> {
  const t = performance.now();
  const child = spawn(process.execPath, [LOCI, ...argv]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((r) => child.once('exit', (code) => r({ code, seconds: (performance.now() - t) / 1000, stdout, stderr })));
}

const dir = mkdtempSync(join(tmpdir(), 'loci-two-writers-'));
try {
  const notes = join(dir, 'notes');
  if (folderArg || flag('--news')) await benchNotes(notes, { news: flag('--news'), folder: folderArg });
  else await writeGeneratedNotes(notes, Number(flag('--notes') ?? 5000));
  const db = join(dir, 'shared.db');
  const first = loci('index', notes, '--db', db, '--json');
  await new Promise((r) => setTimeout(r, offsetMs));
  const second = loci('index', notes, '--db', db, '--json');
  const [a, b] = await Promise.all([first, second]);
  const report = (r: Run) => (r.code === 0 ? (JSON.parse(r.stdout) as { changed: number; unchanged: number; counts: Record<string, number> }) : null);
  const check = await loci('check', '--db', db, '--json');
  const fresh = await loci('index', notes, '--db', join(dir, 'fresh.db'), '--json');
  const rerun = await loci('index', notes, '--db', db, '--json');
  const ra = report(a);
  const rb = report(b);
  const rf = report(fresh);
  const rr = report(rerun);
  const same = (x: Record<string, number> | undefined, y: Record<string, number> | undefined) => JSON.stringify(x) === JSON.stringify(y);
  const out = {
    notes: rf?.counts.documents,
    offsetMs,
    first: { exit: a.code, seconds: +a.seconds.toFixed(1), changed: ra?.changed },
    second: { exit: b.code, seconds: +b.seconds.toFixed(1), changed: rb?.changed, unchanged: rb?.unchanged, waited: /waiting for it to finish/.test(b.stderr) },
    check: { exit: check.code, ok: (JSON.parse(check.stdout) as { ok: boolean }).ok },
    fresh: { seconds: +fresh.seconds.toFixed(1), counts: rf?.counts },
    sharedEqualsFresh: same(rb?.counts, rf?.counts),
    rerunEqualsFresh: same(rr?.counts, rf?.counts),
    crashes: [a, b].filter((r) => /Uncaught|SqliteError|database is locked/.test(r.stderr)).length,
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
