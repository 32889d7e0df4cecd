/**
 * Throughput of the static embedder on real sentences (not a test: speed is machine-dependent).
 * Run: npx tsx test/embed/bench-static.ts [sentences=20000]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';

const want = Number(process.argv[2] ?? 20000);
const data = join(import.meta.dirname, '../../../shared/data');

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (p.endsWith('.md')) yield p;
  }
}

const sentenceSplitter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
function sentencesOf(text: string): string[] {
  return [...sentenceSplitter.segment(text)].map((s) => s.segment.trim()).filter((s) => s.length > 0);
}

const english: string[] = [];
for (const f of files(join(data, 'notes'))) english.push(...sentencesOf(readFileSync(f, 'utf8')));
const chinese: string[] = [];
for (const line of gunzipSync(readFileSync(join(data, 'crud/news.jsonl.gz'))).toString('utf8').split('\n')) {
  if (chinese.length >= want) break;
  if (!line) continue;
  const doc = JSON.parse(line) as Record<string, unknown>;
  const text = Object.values(doc).find((v): v is string => typeof v === 'string' && v.length > 50) ?? '';
  chinese.push(...sentencesOf(text));
}

const t0 = performance.now();
const embedder = await createStaticEmbedder();
const loadMs = performance.now() - t0;

for (const [name, pool] of [['english notes', english], ['chinese news', chinese]] as const) {
  const batch = Array.from({ length: want }, (_, i) => pool[i % pool.length]!);
  const chars = batch.reduce((s, t) => s + t.length, 0);
  await embedder.embed(batch.slice(0, 500)); // warm up the JIT
  const t = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < batch.length; i += 256) await embedder.embed(batch.slice(i, i + 256));
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  // CPU time next to wall time: on a shared machine the wall clock also measures the neighbours.
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `${name}: ${want} sentences (${pool.length} distinct, mean ${(chars / want).toFixed(0)} chars) in ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU → ${((want / ms) * 1000).toFixed(0)} sentences/s`,
  );
}
console.log(`load (first createStaticEmbedder): ${loadMs.toFixed(0)} ms`);
