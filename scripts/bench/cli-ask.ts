// A question asked from the terminal: each `loci ask` is a process of its own, which derives the entity
// graph and the Chinese bigram counts from the whole index before it can answer, unless the previous ask
// kept them (index-cache.ts `snapshotted`, migration 12). Each round times the same `loci ask` twice, as
// real processes: with nothing kept (the snapshots removed first), then reading what that one kept. Then
// the same for the app started again: the first question of an engine opened on the index, before its
// warm-up, with nothing kept and then reading what the previous engine kept as it closed.
//   npx tsx scripts/bench/cli-ask.ts [--rounds 3] [--question "…"] (--db <index> | <notes folder> | --news <n>)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LociEngine } from '../../main/engine/engine.js';
import { openDb } from '../../main/engine/store/db.js';
import { forgetDerivedSnapshots } from '../../main/engine/store/derived-snapshots.js';
import { benchNotes } from './notes.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { db: { type: 'string' }, news: { type: 'string' }, rounds: { type: 'string', default: '3' }, question: { type: 'string' } },
});
if ([values.db, values.news, positionals[0]].filter(Boolean).length !== 1) {
  console.error('usage: npx tsx scripts/bench/cli-ask.ts [--rounds 3] [--question "…"] (--db <index> | <notes folder> | --news <n>)');
  process.exit(2);
}

const repo = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'loci-bench-cli-ask-'));
const chinese = values.news !== undefined;
const question = values.question ?? (chinese ? '这篇新闻报道了哪家公司的什么消息？' : 'How do I get started?');

/** One `loci ask`, as a user runs it: wall time and the time the answer reports. */
function ask(db: string): { wallMs: number; askMs: number } {
  const started = performance.now();
  const out = execFileSync(process.execPath, [join(repo, 'bin/loci.mjs'), 'ask', question, '--db', db, '--json'], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = performance.now() - started;
  return { wallMs, askMs: JSON.parse(out).ms as number };
}

/** Opens the engine as the app does, asks before its warm-up, closes (which keeps what it derived): the question's time. */
async function firstQuestionOfEngine(db: string): Promise<number> {
  const engine = await LociEngine.open({ dbPath: db });
  try {
    const started = performance.now();
    await engine.answers.ask(question);
    return performance.now() - started;
  } finally {
    await engine.close();
  }
}

function forgetSnapshots(db: string): void {
  const d = openDb(db);
  try {
    forgetDerivedSnapshots(d);
  } finally {
    d.close();
  }
}

try {
  let db = values.db;
  if (!db) {
    const notes = join(work, 'notes');
    await benchNotes(notes, { news: values.news, folder: positionals[0] });
    db = join(work, 'index.db');
    const engine = await LociEngine.open({ dbPath: db, embedder: 'glove' });
    await engine.library.index(notes).finally(() => engine.close());
  }
  console.log(`index ${db}; question: ${question}`);
  const cold: number[] = [];
  const kept: number[] = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    forgetSnapshots(db);
    const a = ask(db);
    const b = ask(db);
    cold.push(a.wallMs);
    kept.push(b.wallMs);
    const line = (x: ReturnType<typeof ask>) => `${x.wallMs.toFixed(0)} ms wall (answer ${x.askMs.toFixed(0)} ms)`;
    console.log(`round ${round}: nothing kept ${line(a)}; the last ask's snapshot read ${line(b)}`);
  }
  const opened: number[] = [];
  const reopened: number[] = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    forgetSnapshots(db);
    const a = await firstQuestionOfEngine(db);
    const b = await firstQuestionOfEngine(db);
    opened.push(a);
    reopened.push(b);
    console.log(`round ${round}, the app started again: first question ${a.toFixed(0)} ms with nothing kept; ${b.toFixed(0)} ms reading what the last run kept`);
  }
  const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
  console.log(`median wall: nothing kept ${median(cold).toFixed(0)} ms, snapshot read ${median(kept).toFixed(0)} ms (ratio ${(median(kept) / median(cold)).toFixed(2)})`);
  console.log(`median first question of the app: nothing kept ${median(opened).toFixed(0)} ms, snapshot read ${median(reopened).toFixed(0)} ms (ratio ${(median(reopened) / median(opened)).toFixed(2)})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
