// What notes brought back cost with a model embedder: a notes folder is indexed, then its notes are
// taken away and the folder indexed (another branch checked out), then put back and the folder indexed
// again (the branch checked out again). Reported: the seconds of the first index and of the one that
// brings the notes back, and the vectors waiting released in between. Before migration 11 notes brought
// back embedded every text again; their vectors are now released with them and taken back.
//   npx tsx scripts/bench/brought-back.ts --embedder <spec> <notes folder>
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LociEngine } from '../../main/engine/engine.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { embedder: { type: 'string' } } });
if (!values.embedder || positionals.length !== 1) {
  console.error('usage: npx tsx scripts/bench/brought-back.ts --embedder <spec> <notes folder>');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'loci-bench-back-'));
const notes = join(work, 'notes');
const away = join(work, 'away');
cpSync(positionals[0]!, notes, { recursive: true });
const engine = await LociEngine.open({ dbPath: join(work, 'index.db'), embedder: values.embedder });
const timed = async (what: string) => {
  let rows = 0;
  const start = performance.now();
  const report = await engine.library.index(notes, {
    onProgress: (p) => {
      if (p.phase === 'embed') rows = Math.max(rows, p.total);
    },
  });
  // (An index from before migration 11, for a baseline, has no such table.)
  const hasTable = engine.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'released_vectors'").get() !== undefined;
  const released = hasTable ? (engine.db.prepare('SELECT count(*) FROM released_vectors').pluck().get() as number) : 0;
  const s = ((performance.now() - start) / 1000).toFixed(1);
  console.log(`${what}: ${s} s; ${report.changed} notes written, ${report.removed} removed; ${rows} rows lacked a vector; ${released} vectors released`);
};
try {
  await timed('first index');
  renameSync(notes, away);
  mkdirSync(notes);
  await timed('notes taken away');
  rmSync(notes, { recursive: true, force: true });
  renameSync(away, notes);
  await timed('notes brought back');
} finally {
  await engine.close();
  rmSync(work, { recursive: true, force: true });
}
