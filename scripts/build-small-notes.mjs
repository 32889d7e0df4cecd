#!/usr/bin/env node
// Assembles a folder of ~2,000 small notes for `loci bench-index` from ../shared/data: the SilverBullet
// and Foam docs as they are, then CRUD-RAG news articles cut into small notes (a few sentences each,
// named by the article id, as untitled notes are) until the target count is reached. Writes only outside
// the repository (the data must never be copied into it).
//   node scripts/build-small-notes.mjs <out-folder> [--notes 2000] [--data ../shared/data]
import { createReadStream, existsSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const out = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const target = Number(flag('--notes', '2000'));
const data = path.resolve(flag('--data', path.join(repo, '../shared/data')));
const NOTE_CHARS = 400;

if (!out) {
  console.error('usage: build-small-notes.mjs <out-folder> [--notes 2000] [--data ../shared/data]');
  process.exit(2);
}
const outDir = path.resolve(out);
if (outDir === repo || outDir.startsWith(repo + path.sep)) {
  console.error(`Refusing to write inside the repository (${outDir}): the data stays outside it.`);
  process.exit(2);
}
for (const p of ['notes/silverbullet_docs', 'notes/foam_docs', 'crud/news.jsonl.gz']) {
  if (!existsSync(path.join(data, p))) {
    console.error(`Missing ${path.join(data, p)}`);
    process.exit(1);
  }
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
await cp(path.join(data, 'notes/silverbullet_docs'), path.join(outDir, 'silverbullet'), { recursive: true });
await cp(path.join(data, 'notes/foam_docs'), path.join(outDir, 'foam'), { recursive: true });
let count = await countFiles(outDir);

// Sentences end at 。！？ (or . ! ? followed by a space); a note gathers sentences up to NOTE_CHARS.
const sentenceEnd = /(?<=[。！？])|(?<=[.!?])\s+/u;
const news = path.join(outDir, 'news');
await mkdir(news);
const lines = createInterface({ input: createReadStream(path.join(data, 'crud/news.jsonl.gz')).pipe(createGunzip()) });
for await (const line of lines) {
  if (count >= target) break;
  if (!line.trim()) continue;
  const { id, text } = JSON.parse(line);
  let part = 0;
  let buf = '';
  const flush = async () => {
    if (!buf.trim() || count >= target) return;
    await writeFile(path.join(news, `${id}-${++part}.md`), `${buf.trim()}\n`);
    count++;
    buf = '';
  };
  for (const sentence of String(text).split(sentenceEnd)) {
    if (buf && buf.length + sentence.length > NOTE_CHARS) await flush();
    buf += sentence;
  }
  await flush();
}
lines.close();
console.log(`${count} notes in ${outDir}`);

async function countFiles(dir) {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n++;
  return n;
}
