// How soon a switch of embedder answers with the new model: a notes folder is indexed with the built-in
// embedder, then Settings' switch runs to the given one. Reported: the seconds until the new model answers
// (what questions read is embedded and swapped in) against the seconds until the switch is done (PG-RAG's
// fact paths embedded, the graph rebuilt), which is when the switch answered before it ran in two stages.
// The ratio is the figure to compare on a shared machine.
// With --edit <note>, that note (of a copy of the folder) is edited once the new model answers and the
// folder indexed again: reported are the seconds that run took beside the switch, the seconds the switch
// still had to go (what the run waited before index runs went on beside a switch), and the same run
// after the switch, as a baseline.
//   npx tsx scripts/bench/switch.ts --embedder <spec> [--edit <note path in the folder>] <notes folder>
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LociEngine } from '../../main/engine/engine.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { embedder: { type: 'string' }, edit: { type: 'string' } } });
if (!values.embedder || positionals.length !== 1) {
  console.error('usage: npx tsx scripts/bench/switch.ts --embedder <spec> [--edit <note path in the folder>] <notes folder>');
  process.exit(2);
}
const spec = values.embedder;

const work = mkdtempSync(join(tmpdir(), 'loci-bench-switch-'));
const notes = join(work, 'notes');
cpSync(positionals[0]!, notes, { recursive: true });
const edit = (round: string) => appendFileSync(join(notes, values.edit!), `\nEdited while benchmarking (${round}).\n`);
const engine = await LociEngine.open({ dbPath: join(work, 'index.db'), embedder: 'glove' });
try {
  await engine.library.index(notes);
  const texts: { before?: number; after?: number } = {};
  let answering: number | null = null;
  const beside: { run?: Promise<{ start: number; end: number }> } = {};
  const started = performance.now();
  engine.events.subscribe((e) => {
    if (e.type !== 'embedder') return;
    if (e.answering && answering === null) {
      answering = performance.now() - started;
      if (values.edit) {
        edit('during the switch');
        const start = performance.now();
        beside.run = engine.library.index(notes).then(() => ({ start, end: performance.now() }));
      }
    }
    if (e.progress?.phase === 'embed') texts[e.answering ? 'after' : 'before'] ??= e.progress.total;
  });
  await engine.settings.update({ embedder: spec });
  await engine.embedders.switchEmbedder(spec);
  const done = performance.now() - started;
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(
    `${engine.embedder.id}: answers after ${seconds(answering ?? done)} s (${texts.before ?? 0} texts), done after ${seconds(done)} s ` +
      `(${texts.after ?? 0} fact paths more): ${((answering ?? done) / done).toFixed(2)} of the wait`,
  );
  if (beside.run) {
    const run = await beside.run;
    edit('after the switch');
    const t = performance.now();
    await engine.library.index(notes);
    const after = performance.now() - t;
    console.log(
      `index run of one edited note beside the switch: ${seconds(run.end - run.start)} s (the switch had ${seconds(started + done - run.start)} s to go); ` +
        `the same run after it: ${seconds(after)} s`,
    );
  }
} finally {
  await engine.close();
  rmSync(work, { recursive: true, force: true });
}
