// The fault suite (issue 43): real `loci` processes on one generated notes folder and one index — two
// indexers at once, index + serve + watch together, SIGKILL at seeded random points of each, a disk that
// fills up (a file-size limit) — and after each, `loci check` passes and a clean re-run of the index
// gives the counts a fresh index of the folder gives. LOCI_FAULT_SEED and LOCI_FAULT_RUNS vary the kills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeGeneratedNotes } from '../support/generated-notes.js';

const LOCI = resolve(import.meta.dirname, '../../bin/loci.mjs');
const NOTES = 150;
const SEED = Number(process.env.LOCI_FAULT_SEED ?? 43);
const KILL_RUNS = Number(process.env.LOCI_FAULT_RUNS ?? 5);
let dir: string;
let notes: string;
let emptyStatic: string;
let freshCounts: Record<string, number>;
let faultRuns = 0;

interface Proc {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], opts: { fileSizeKb?: number } = {}): Proc {
  let out = '';
  let err = '';
  const argv = [LOCI, ...args];
  // A file-size limit stands in for a full disk: writes past it fail with EFBIG (Node ignores SIGXFSZ).
  const child = opts.fileSizeKb
    ? spawn('bash', ['-c', `ulimit -f ${opts.fileSizeKb} && exec "$0" "$@"`, process.execPath, ...argv])
    : spawn(process.execPath, argv);
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, stdout: () => out, stderr: () => err, exit };
}

async function loci(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = start(args);
  const { code } = await p.exit;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** An uncaught error, or SQLite's lock escaping as one: what must never reach a Loci process's stderr. */
function assertNoCrash(stderr: string): void {
  expect(stderr).not.toMatch(/Uncaught|UnhandledPromiseRejection|SqliteError|database is locked|at .*\.(ts|js|mjs):\d+/);
}

/** `loci check` passes, and a clean run of `loci index` ends with a fresh index's counts. */
async function assertConsistent(db: string, opts: { recheck?: boolean } = {}): Promise<void> {
  const checked = await loci('check', '--db', db, '--json');
  const report = JSON.parse(checked.stdout) as { ok: boolean; findings: { ok: boolean; message: string }[] };
  expect(report.findings.filter((f) => !f.ok)).toEqual([]);
  expect(checked.code).toBe(0);
  const rerun = await loci('index', notes, '--db', db, '--json');
  expect(rerun.code).toBe(0);
  assertNoCrash(rerun.stderr);
  expect((JSON.parse(rerun.stdout) as { counts: Record<string, number> }).counts).toEqual(freshCounts);
  if (opts.recheck) expect((await loci('check', '--db', db)).code).toBe(0);
}

/** mulberry32: the kill points are the same for the same seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function freshIndexCounts(): Promise<Record<string, number>> {
  const db = join(dir, `fresh-${Date.now()}.db`);
  const r = await loci('index', notes, '--db', db, '--json');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { counts: Record<string, number> }).counts;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-faults-'));
  notes = join(dir, 'notes');
  emptyStatic = join(dir, 'static');
  await mkdir(emptyStatic);
  await writeGeneratedNotes(notes, NOTES);
  freshCounts = await freshIndexCounts();
}, 120_000);

afterAll(async () => {
  console.info(`fault suite: ${faultRuns} fault runs tried (seed ${SEED}, ${KILL_RUNS} of them SIGKILL runs)`);
  await rm(dir, { recursive: true, force: true });
});

describe('faults lose nothing', () => {
  it('two indexers at once: the second waits for the first, naming it, and nothing is written twice', { timeout: 120_000 }, async () => {
    faultRuns++;
    const db = join(dir, 'two.db');
    const first = start(['index', notes, '--db', db, '--json']);
    while (!existsSync(`${db}.lock`) && first.child.exitCode === null) await sleep(20);
    const second = start(['index', notes, '--db', db, '--json']);
    const refused = await loci('index', notes, '--db', db, '--no-wait');
    const [a, b] = await Promise.all([first.exit, second.exit]);
    expect([a.code, b.code]).toEqual([0, 0]);
    assertNoCrash(first.stderr() + second.stderr());
    expect(second.stderr()).toMatch(/another Loci process \(pid \d+ .*\) is indexing .*notes — waiting for it to finish…/);
    const reports = [first, second].map((p) => JSON.parse(p.stdout()) as { changed: number; unchanged: number; counts: Record<string, number> });
    expect(reports[0]!.changed + reports[1]!.changed).toBe(NOTES);
    expect(reports[1]!.counts).toEqual(freshCounts);
    // --no-wait while the first held the lock: a clear error naming it, exit 1.
    if (refused.code !== 0) expect(refused.stderr).toMatch(/^loci: Another Loci process \(pid \d+ .*\) is indexing .*: an index takes one writer at a time/m);
    await assertConsistent(db, { recheck: true });
  });

  it('index, serve and watch on one library while notes change: nobody crashes, the index ends as a fresh one', { timeout: 150_000 }, async () => {
    faultRuns++;
    const db = join(dir, 'together.db');
    const lib = join(dir, 'together');
    await writeGeneratedNotes(lib, 90);
    const serve = start(['serve', '--db', db, '--folder', lib, '--port', '0', '--static', emptyStatic]);
    const watch = start(['watch', lib, '--db', db, '--json']);
    const index = start(['index', lib, '--db', db, '--json']);
    await sleep(1500);
    // Edits, a new note and a deletion while all three run: the watchers see them.
    for (let i = 0; i < 6; i++) await appendFile(join(lib, 'harbour', `harbour-${i * 8}.md`), `\nAn added line ${i} about the lighthouse keeper.\n`);
    await writeFile(join(lib, 'harbour', 'new-note.md'), '# New note\n\nThe ferry to the island leaves at dawn.\n');
    await unlink(join(lib, 'orchard', 'orchard-1.md'));
    const indexed = await index.exit;
    expect(indexed.code, index.stderr()).toBe(0);
    await sleep(4000);
    expect(serve.child.exitCode, serve.stderr()).toBeNull();
    expect(watch.child.exitCode, watch.stderr()).toBeNull();
    serve.child.kill('SIGINT');
    watch.child.kill('SIGINT');
    const [s, w] = await Promise.all([serve.exit, watch.exit]);
    expect(s.code).toBe(0);
    expect(w.code).toBe(0);
    assertNoCrash(serve.stderr() + watch.stderr() + index.stderr());
    expect(existsSync(`${db}.lock`)).toBe(false);

    const fresh = join(dir, 'together-fresh.db');
    const r = await loci('index', lib, '--db', fresh, '--json');
    const expected = (JSON.parse(r.stdout) as { counts: Record<string, number> }).counts;
    const checked = await loci('check', '--db', db);
    expect(checked.code).toBe(0);
    const rerun = await loci('index', lib, '--db', db, '--json');
    expect((JSON.parse(rerun.stdout) as { counts: Record<string, number> }).counts).toEqual(expected);
  });

  it(`SIGKILL at seeded random points of index, two indexers, watch and serve (seed ${SEED})`, { timeout: 240_000 }, async () => {
    const random = seeded(SEED);
    const kinds = ['index', 'two indexers', 'watch', 'serve'] as const;
    const tried: string[] = [];
    // Every kind of process is killed (in a seeded order), each at a seeded point of its run.
    const first = Math.floor(random() * kinds.length);
    for (let run = 0; run < KILL_RUNS; run++) {
      faultRuns++;
      const kind = kinds[(first + run) % kinds.length]!;
      const delay = Math.round(800 + random() * 5000);
      const db = join(dir, `kill-${run}.db`);
      const procs =
        kind === 'index'
          ? [start(['index', notes, '--db', db, '--json'])]
          : kind === 'two indexers'
            ? [start(['index', notes, '--db', db, '--json']), start(['index', notes, '--db', db, '--json'])]
            : kind === 'watch'
              ? [start(['watch', notes, '--db', db, '--json'])]
              : [start(['serve', '--db', db, '--folder', notes, '--port', '0', '--static', emptyStatic])];
      await sleep(delay);
      for (const p of procs) p.child.kill('SIGKILL');
      const exits = await Promise.all(procs.map((p) => p.exit));
      for (const p of procs) assertNoCrash(p.stderr());
      tried.push(`${kind} at ${delay} ms${exits.some((e) => e.signal === 'SIGKILL') ? '' : ' (had finished)'}`);
      if (!existsSync(db)) continue; // killed before it created the index: nothing to check
      const leftLock = existsSync(`${db}.lock`);
      await assertConsistent(db);
      if (leftLock) expect(existsSync(`${db}.lock`)).toBe(false);
    }
    console.info(`SIGKILL runs: ${tried.join('; ')}`);
  });

  it('a disk that fills up mid-index: a clear error, and the index stays consistent', { timeout: 120_000 }, async () => {
    faultRuns++;
    const sized = join(dir, 'sized.db');
    await loci('index', notes, '--db', sized);
    const full = (await stat(sized)).size + ((await stat(`${sized}-wal`).catch(() => null))?.size ?? 0);
    const db = join(dir, 'full.db');
    const limited = start(['index', notes, '--db', db, '--json'], { fileSizeKb: Math.max(64, Math.round(full / 1024 / 3)) });
    const { code } = await limited.exit;
    if (code === 0) {
      console.info('disk full: skipped — the index fit under the file-size limit on this machine');
      return;
    }
    expect(code).toBe(1);
    expect(limited.stderr()).toMatch(/^loci: The index could not be written: the disk is full, a file-size limit was reached, or the disk failed/m);
    assertNoCrash(limited.stderr());
    await assertConsistent(db);
  });
});
