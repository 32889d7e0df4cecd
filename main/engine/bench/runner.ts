// `loci bench`: index a dataset's pooled paragraphs once in a temporary database, run every method on every
// question, and measure recall, answer-string recall, latency, index time and memory side by side.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import { createStaticEmbedder } from '../embed/static-embedder.js';
import { indexTexts } from '../indexer.js';
import { IndexCache } from '../retrieve/index-cache.js';
import { retrieve } from '../retrieve/index.js';
import type { RetrievalContext } from '../retrieve/retriever.js';
import type { RetrievalMethod } from '../types.js';
import type { BenchDataset, BenchParagraph } from './datasets.js';
import { PEER_NAMES, buildPeer, type PeerName } from './peers.js';
import { answerFound, mean, percentile, rankedDocuments, recallAtK } from './metrics.js';

export interface MethodResult {
  method: string;
  /** Mean supporting-paragraph recall@k, per k. */
  recall: Record<number, number>;
  /** Share of questions whose answer string occurs in the contexts of the top-k documents (yes/no questions excluded). */
  answerRecall: Record<number, number>;
  answerQuestions: number;
  latencyP50Ms: number;
  latencyP95Ms: number;
  /** Index build time: the shared Loci index for Loci methods, the library's own index for peers. */
  indexSeconds: number;
  /** Highest resident set size seen while this method was built and run. */
  peakRssMb: number;
  errors: number;
}

export interface BenchReport {
  dataset: string;
  format: string;
  questions: number;
  paragraphs: number;
  ks: number[];
  embedder: string;
  indexSeconds: number;
  results: MethodResult[];
}

export interface BenchOptions {
  methods: string[];
  ks: number[];
  embedder?: Embedder;
  /** Database file; a temporary one (deleted afterwards) when absent. */
  dbFile?: string;
  onProgress?: (message: string) => void;
}

export const LOCI_METHODS: RetrievalMethod[] = ['bm25', 'dense', 'hybrid', 'hig', 'pgr', 'ppr', 'loci'];
export const ALL_BENCH_METHODS: string[] = [...LOCI_METHODS, ...PEER_NAMES];

export const relPathOf = (i: number) => `p${i}.txt`;
const indexOf = (relPath: string) => Number(/^p(\d+)\.txt$/.exec(relPath)?.[1] ?? -1);

/** Indexes the paragraphs as documents titled by their title; returns the seconds it took. */
export async function indexCorpus(db: Db, embedder: Embedder, corpus: BenchParagraph[]): Promise<number> {
  const started = performance.now();
  await indexTexts(
    db,
    embedder,
    'bench:',
    corpus.map((p, i) => ({ relPath: relPathOf(i), title: p.title, content: p.text })),
  );
  return (performance.now() - started) / 1000;
}

const rssMb = () => process.memoryUsage().rss / 2 ** 20;

interface Ranked {
  docs: number[];
  /** Context text per document, in rank order. */
  texts: Map<number, string[]>;
}

async function evaluate(
  name: string,
  ds: BenchDataset,
  ks: number[],
  indexSeconds: number,
  run: (question: string, k: number) => Promise<Ranked>,
): Promise<MethodResult> {
  const maxK = Math.max(...ks);
  let peak = rssMb();
  // One untimed query loads what the method caches (vectors, derived tables) so latency is per query.
  await run(ds.questions[0].question, maxK).catch(() => undefined);
  const latencies: number[] = [];
  const recall: Record<number, number[]> = Object.fromEntries(ks.map((k) => [k, []]));
  const answers: Record<number, number[]> = Object.fromEntries(ks.map((k) => [k, []]));
  let errors = 0;
  for (const q of ds.questions) {
    const started = performance.now();
    let ranked: Ranked;
    try {
      ranked = await run(q.question, maxK);
    } catch {
      errors++;
      ranked = { docs: [], texts: new Map() };
    }
    latencies.push(performance.now() - started);
    const docs = rankedDocuments(ranked.docs);
    for (const k of ks) {
      recall[k].push(recallAtK(docs, q.gold, k));
      const text = docs
        .slice(0, k)
        .flatMap((d) => ranked.texts.get(d) ?? [])
        .join('\n');
      const found = answerFound(text, q.answers);
      if (found !== null) answers[k].push(found);
    }
    peak = Math.max(peak, rssMb());
  }
  return {
    method: name,
    recall: Object.fromEntries(ks.map((k) => [k, mean(recall[k])])),
    answerRecall: Object.fromEntries(ks.map((k) => [k, mean(answers[k])])),
    answerQuestions: answers[ks[0]].length,
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    indexSeconds,
    peakRssMb: peak,
    errors,
  };
}

export async function runBench(ds: BenchDataset, file: string, opts: BenchOptions): Promise<BenchReport> {
  const log = opts.onProgress ?? (() => undefined);
  const unknown = opts.methods.filter((m) => !ALL_BENCH_METHODS.includes(m));
  if (unknown.length) throw new Error(`Unknown method(s): ${unknown.join(', ')}. Available: ${ALL_BENCH_METHODS.join(', ')}`);
  const embedder = opts.embedder ?? (await createStaticEmbedder());
  const tempDir = opts.dbFile ? null : mkdtempSync(join(tmpdir(), 'loci-bench-'));
  const db = openDb(opts.dbFile ?? join(tempDir!, 'bench.db'));
  try {
    const lociMethods = opts.methods.filter((m): m is RetrievalMethod => (LOCI_METHODS as string[]).includes(m));
    let indexSeconds = 0;
    if (lociMethods.length) {
      log(`indexing ${ds.corpus.length} paragraphs…`);
      indexSeconds = await indexCorpus(db, embedder, ds.corpus);
    }
    const ctx: RetrievalContext = { db, embedder, cache: new IndexCache(db, embedder) };
    const results: MethodResult[] = [];
    for (const method of opts.methods) {
      log(`running ${method} on ${ds.questions.length} questions…`);
      if ((PEER_NAMES as string[]).includes(method)) {
        const started = performance.now();
        const peer = await buildPeer(method as PeerName, ds.corpus);
        const built = (performance.now() - started) / 1000;
        results.push(
          await evaluate(method, ds, opts.ks, built, async (question, k) => {
            const docs = await peer.search(question, k);
            return { docs, texts: new Map(docs.map((d) => [d, [`${ds.corpus[d].title}\n${ds.corpus[d].text}`]])) };
          }),
        );
      } else {
        results.push(
          await evaluate(method, ds, opts.ks, indexSeconds, async (question, k) => {
            const { contexts } = await retrieve(ctx, question, method as RetrievalMethod, k);
            const texts = new Map<number, string[]>();
            const docs: number[] = [];
            for (const c of contexts) {
              const d = indexOf(c.docPath);
              docs.push(d);
              const list = texts.get(d) ?? [];
              list.push(c.kind === 'chunk' ? `${c.docTitle}\n${c.text}` : c.text);
              texts.set(d, list);
            }
            return { docs, texts };
          }),
        );
      }
    }
    return {
      dataset: file,
      format: ds.format,
      questions: ds.questions.length,
      paragraphs: ds.corpus.length,
      ks: opts.ks,
      embedder: embedder.id,
      indexSeconds,
      results,
    };
  } finally {
    db.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

const pct = (x: number) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '–');

/** One table, methods side by side. */
export function formatReport(r: BenchReport): string {
  const header = [
    'method',
    ...r.ks.map((k) => `R@${k}`),
    ...r.ks.map((k) => `ans@${k}`),
    'p50 ms',
    'p95 ms',
    'index s',
    'peak RSS MB',
  ];
  const rows = r.results.map((m) => [
    m.method + (m.errors ? ` (${m.errors} errors)` : ''),
    ...r.ks.map((k) => pct(m.recall[k])),
    ...r.ks.map((k) => pct(m.answerRecall[k])),
    m.latencyP50Ms.toFixed(1),
    m.latencyP95Ms.toFixed(1),
    m.indexSeconds.toFixed(2),
    m.peakRssMb.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  const answerNote = r.results[0] ? ` (answer recall over ${r.results[0].answerQuestions} questions with a span answer)` : '';
  return [
    `${r.dataset} — ${r.format}, ${r.questions} questions, ${r.paragraphs} pooled paragraphs, embedder ${r.embedder}${answerNote}`,
    line(header),
    '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|',
    ...rows.map(line),
  ].join('\n');
}
