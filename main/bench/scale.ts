// `npm run bench:scale`: how index time, retrieval latency and memory grow with the corpus, on real text
// (CRUD-RAG's Chinese news). One database grows through the sizes (each step indexes only the new
// documents, so the index time reported is cumulative); every method answers the same questions at
// every size.
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../engine/store/db.js';
import type { Embedder } from '../engine/embed/embedder.js';
import { createStaticEmbedder } from '../engine/embed/static-embedder.js';
import { indexTexts, type TextDocument } from '../engine/index/run.js';
import { IndexCache } from '../engine/retrieve/index-cache.js';
import { retrieve } from '../engine/retrieve/index.js';
import type { RetrievalMethod } from '../engine/types.js';
import { buildPeer } from './peers.js';
import { percentile } from './metrics.js';
import { ALL_BENCH_METHODS, LOCI_METHODS, PEER_NAMES, type PeerName } from './names.js';

export interface ScaleOptions {
  newsFile: string;
  questionFiles: string[];
  sizes: number[];
  methods: string[];
  queries: number;
  k: number;
  embedder?: Embedder;
  onProgress?: (message: string) => void;
}

export interface ScaleRow {
  size: number;
  method: string;
  /** Cumulative seconds to index up to this size (the Loci index; the library's own build for peers). */
  indexSeconds: number;
  p50Ms: number;
  p95Ms: number;
  rssMb: number;
}

/** The first `n` news articles, streamed from the gzipped JSON Lines file. */
export async function readNews(file: string, n: number): Promise<{ id: number; text: string }[]> {
  const out: { id: number; text: string }[] = [];
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    out.push(JSON.parse(line) as { id: number; text: string });
    if (out.length >= n) break;
  }
  lines.close();
  return out;
}

/** CRUD-RAG's short-answer sub-questions, in file order. */
export function readCrudQuestions(files: string[], n: number): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (!existsSync(f)) continue;
    for (const item of JSON.parse(readFileSync(f, 'utf8')) as { questions?: string[] }[]) for (const q of item.questions ?? []) out.push(q);
  }
  return out.slice(0, n);
}

const rssMb = () => process.memoryUsage().rss / 2 ** 20;

/** A news article as a document: its first clause of body text stands in for the missing title. */
function newsDocument(a: { id: number; text: string }): TextDocument {
  const body = a.text.replace(/^[\d\s:-]+，?正文：/, '');
  const title = body.split(/[。！？\n]/)[0]!.slice(0, 40) || `news ${a.id}`;
  return { relPath: `news/${a.id}.txt`, title, content: a.text };
}

export async function runScale(opts: ScaleOptions): Promise<ScaleRow[]> {
  const log = opts.onProgress ?? (() => undefined);
  const unknown = opts.methods.filter((m) => !ALL_BENCH_METHODS.includes(m));
  if (unknown.length) throw new Error(`Unknown method(s): ${unknown.join(', ')}`);
  const sizes = [...opts.sizes].sort((a, b) => a - b);
  const news = await readNews(opts.newsFile, sizes[sizes.length - 1]!);
  const questions = readCrudQuestions(opts.questionFiles, opts.queries);
  if (questions.length === 0) throw new Error('No questions found for the latency runs');
  const embedder = opts.embedder ?? (await createStaticEmbedder());
  const dir = mkdtempSync(join(tmpdir(), 'loci-scale-'));
  const db = openDb(join(dir, 'scale.db'));
  const rows: ScaleRow[] = [];
  try {
    let indexSeconds = 0;
    for (const size of sizes) {
      const docs = news.slice(0, size).map(newsDocument);
      if (opts.methods.some((m) => (LOCI_METHODS as string[]).includes(m))) {
        log(`indexing ${docs.length} news articles…`);
        const started = performance.now();
        await indexTexts(db, embedder, 'crud:', docs);
        indexSeconds += (performance.now() - started) / 1000;
        log(`indexed ${size} in ${indexSeconds.toFixed(1)} s (cumulative)`);
      }
      const cache = new IndexCache(db, embedder);
      for (const method of opts.methods) {
        let search: (q: string) => Promise<unknown>;
        let built = indexSeconds;
        if ((PEER_NAMES as string[]).includes(method)) {
          const t0 = performance.now();
          const peer = await buildPeer(
            method as PeerName,
            docs.map((d) => ({ title: d.title ?? '', text: d.content })),
          );
          built = (performance.now() - t0) / 1000;
          search = (q) => peer.search(q, opts.k);
        } else {
          if (!(LOCI_METHODS as string[]).includes(method)) continue;
          search = (q) => retrieve({ db, embedder, cache }, q, method as RetrievalMethod, opts.k);
        }
        await search(questions[0]!);
        const latencies: number[] = [];
        for (const q of questions) {
          const t0 = performance.now();
          await search(q);
          latencies.push(performance.now() - t0);
        }
        const row = { size, method, indexSeconds: built, p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95), rssMb: rssMb() };
        rows.push(row);
        log(`  ${method} at ${size}: index ${row.indexSeconds.toFixed(1)} s, p50 ${row.p50Ms.toFixed(2)} ms, p95 ${row.p95Ms.toFixed(2)} ms, RSS ${row.rssMb.toFixed(0)} MB`);
      }
    }
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** One table per measure, methods as rows and sizes as columns, plus the growth from the smallest to the largest size. */
export function formatScale(rows: ScaleRow[]): string {
  const sizes = [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b);
  const methods = [...new Set(rows.map((r) => r.method))];
  const measures: [string, (r: ScaleRow) => number, number][] = [
    ['index s (cumulative)', (r) => r.indexSeconds, 2],
    ['p50 ms', (r) => r.p50Ms, 2],
    ['p95 ms', (r) => r.p95Ms, 2],
    ['RSS MB (after the method ran)', (r) => r.rssMb, 0],
  ];
  const out: string[] = [];
  for (const [name, get, digits] of measures) {
    const header = [name, ...sizes.map((s) => `${s} docs`), `×${sizes[sizes.length - 1]! / sizes[0]!} docs →`];
    const body = methods.map((m) => {
      const cells = sizes.map((s) => rows.find((r) => r.method === m && r.size === s));
      const first = cells[0] ? get(cells[0]) : NaN;
      const last = cells[cells.length - 1] ? get(cells[cells.length - 1]!) : NaN;
      return [m, ...cells.map((c) => (c ? get(c).toFixed(digits) : '–')), Number.isFinite(first / last) && first > 0 ? `×${(last / first).toFixed(1)}` : '–'];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
    const line = (cells: string[]) => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
    out.push(line(header), '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|', ...body.map(line), '');
  }
  return out.join('\n');
}
