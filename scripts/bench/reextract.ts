// Re-extracting a whole library: what the first run after an upgrade of fast-mode extraction does
// (index/run.ts, refreshOutdatedExtraction), and what a folder whose every note changed costs. Each note is
// rewritten over its old rows, so any per-note statement that reads a table whole makes the run grow with
// the square of the library. Reported as a ratio to a fresh index of the same notes, in the same run.
//   npx tsx scripts/bench/reextract.ts [--rounds 2] (<notes folder> | --news <n>)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDb } from '../../main/engine/store/db.js';
import { forgetFastExtractions } from '../../main/engine/store/library.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { benchNotes } from './notes.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { news: { type: 'string' }, rounds: { type: 'string', default: '2' } } });
if (!values.news && positionals.length !== 1) {
  console.error('usage: npx tsx scripts/bench/reextract.ts [--rounds 2] (<notes folder> | --news <n>)');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'loci-bench-reextract-'));
const notes = join(work, 'notes');
await benchNotes(notes, { news: values.news, folder: positionals[0] });

const embedder = await createEmbedder('glove');
const seconds = (t: number) => (performance.now() - t) / 1000;
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    const db = openDb(join(work, `index-${round}.db`));
    try {
      let t = performance.now();
      const first = await indexFolder(db, embedder, notes);
      const fresh = seconds(t);
      const forgotten = forgetFastExtractions(db);
      t = performance.now();
      await indexFolder(db, embedder, notes);
      const again = seconds(t);
      console.log(
        `round ${round}: ${first.changed} notes indexed in ${fresh.toFixed(1)} s; all ${forgotten} extracted again in ${again.toFixed(1)} s = ${(again / fresh).toFixed(2)}× the fresh index`,
      );
    } finally {
      db.close();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
