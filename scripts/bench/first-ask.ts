// The first question after an edit: a watched folder re-indexes the edited note, which drops what
// retrieval built for the whole index (vectors in memory, the entity–chunk–note graph, term statistics).
// The folder is indexed, then for each round one note is edited and the folder indexed again, and the
// question timed twice: asked at once (it builds all that itself), and asked after the engine's idle-time
// warm-up (retrieve/warm-up.ts). A third timing, the same question asked again, is the warm floor.
//   npx tsx scripts/bench/first-ask.ts [--rounds 3] [--question "…"] (<notes folder> | --news <n>)
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LociEngine } from '../../main/engine/engine.js';
import { listNotes } from '../../main/bench/docs-qa.js';
import { benchNotes } from './notes.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { news: { type: 'string' }, rounds: { type: 'string', default: '3' }, question: { type: 'string' } },
});
if (!values.news && positionals.length !== 1) {
  console.error('usage: npx tsx scripts/bench/first-ask.ts [--rounds 3] [--question "…"] (<notes folder> | --news <n>)');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'loci-bench-first-ask-'));
const notes = join(work, 'notes');
await benchNotes(notes, { news: values.news, folder: positionals[0] });
const edited = listNotes(notes)[0]!;
const question = values.question ?? (values.news ? '这篇新闻报道了哪家公司的什么消息？' : 'How do I get started?');

const engine = await LociEngine.open({ dbPath: join(work, 'index.db'), embedder: 'glove' });
const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
try {
  let t = performance.now();
  await engine.library.index(notes);
  console.log(`indexed ${listNotes(notes).length} notes in ${ms(t)}; question: ${question}`);
  for (let round = 1; round <= Number(values.rounds); round++) {
    appendFileSync(join(notes, edited), `\nEdited while benchmarking (round ${round}, cold).\n`);
    await engine.library.index(notes);
    t = performance.now();
    await engine.answers.ask(question);
    const cold = ms(t);
    appendFileSync(join(notes, edited), `\nEdited while benchmarking (round ${round}, warmed).\n`);
    await engine.library.index(notes);
    t = performance.now();
    await engine.warmUp.settled();
    const warmUp = ms(t);
    t = performance.now();
    await engine.answers.ask(question);
    const warmed = ms(t);
    t = performance.now();
    await engine.answers.ask(question);
    console.log(`round ${round}: first ask after an edit ${cold}; after the warm-up (${warmUp}) ${warmed}; asked again ${ms(t)}`);
  }
} finally {
  await engine.close();
  rmSync(work, { recursive: true, force: true });
}
