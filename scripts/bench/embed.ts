// What a model embedder costs when it indexes: the texts indexing embeds for each note (its document, chunks,
// facts and mind-map paths, built by index-worker/owner-texts.ts as the indexer builds them) embedded once,
// with the CPU time (every thread of the process) and the wall time it took. CPU time is the figure to
// compare on a shared machine; run two versions of the code one after the other on the same notes.
//   npx tsx scripts/bench/embed.ts --embedder <spec> <notes folder>
//   npx tsx scripts/bench/embed.ts --embedder <spec> --news <n>     (the first n CRUD-RAG news articles)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { listNotes } from '../../main/bench/docs-qa.js';
import { readNews } from '../../main/bench/scale.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { extractFast } from '../../main/engine/extract/fast/index.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { chunkTexts, docText, EMBED_MAX_CHARS, mindMapTexts } from '../../main/engine/index-worker/owner-texts.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { embedder: { type: 'string' }, news: { type: 'string' } } });
if (!values.embedder || (!values.news && positionals.length !== 1)) {
  console.error('usage: npx tsx scripts/bench/embed.ts --embedder <spec> (<notes folder> | --news <n>)');
  process.exit(2);
}

const notes = values.news
  ? (await readNews(join(import.meta.dirname, '../../../shared/data/crud/news.jsonl.gz'), Number(values.news))).map((a) => ({ relPath: `${a.id}.md`, content: a.text }))
  : listNotes(positionals[0]!).map((relPath) => ({ relPath, content: readFileSync(join(positionals[0]!, relPath), 'utf8') }));
const texts = notes.flatMap(({ relPath, content }) => {
  const note = parseNote(relPath, content);
  const extraction = extractFast(note);
  return [docText(note), ...chunkTexts(note), ...extraction.fcis.map((f) => f.text.slice(0, EMBED_MAX_CHARS)), ...mindMapTexts(extraction.mindMap)];
});

const embedder = await createEmbedder(values.embedder);
const cpu = process.cpuUsage();
const started = performance.now();
await embedder.embed(texts);
const used = process.cpuUsage(cpu);
console.log(
  `${embedder.id}: ${notes.length} notes, ${texts.length} texts, ${texts.reduce((s, t) => s + t.length, 0)} characters; ` +
    `CPU ${((used.user + used.system) / 1e6).toFixed(1)} s, wall ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
await embedder.dispose?.();
