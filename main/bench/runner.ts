// `loci bench`: index a dataset's pooled paragraphs once in a temporary database, run every method on every
// question, and measure recall, answer-string recall, latency, index time and memory side by side.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../engine/store/db.js';
import type { Embedder } from '../engine/embed/embedder.js';
import { createStaticEmbedder, keptVectorsModel } from '../engine/embed/static-embedder.js';
import { indexTexts, type IndexerOptions } from '../engine/index/run.js';
import { IndexCache } from '../engine/retrieve/index-cache.js';
import { retrieve } from '../engine/retrieve/index.js';
import type { RetrievalContext } from '../engine/retrieve/retriever.js';
import { embedderQuality, type EmbedderQuality } from '../engine/retrieve/embedder-quality.js';
import type { RetrievalMethod } from '../engine/types.js';
import { EXTRACTIVE_NOTICE, extractiveAnswer } from '../engine/answer/extractive.js';
import { formatSources } from '../engine/answer/generate.js';
import { termMatcher } from '../engine/answer/term-match.js';
import type { AnswerMetric, BenchDataset, BenchParagraph } from './dataset.js';
import { wordShare } from './docs-qa.js';
import { buildPeer, type PeerIndex } from './peers.js';
import { checkMethods, LOCI_METHODS, PEER_NAMES, type PeerName } from './names.js';
import { answerFound, mean, percentile, rankedDocuments, recallAtK } from './metrics.js';

/** One question's scores, so two methods (or two versions of one) can be compared question by question. */
export interface QuestionScore {
  id: string;
  /** Supporting-document recall per k. */
  recall: Record<number, number>;
  /** The answer score in the first k contexts, per k (null: the question has no scorable answer). */
  answer: Record<number, number | null>;
  /** The answer score of the extractive answer shown (null: none, or a peer library). */
  shown: number | null;
  /** The answer score of the sources a model would be given (null: none, or a peer library). */
  sources: number | null;
}

export interface MethodResult {
  method: string;
  /** Mean supporting-document recall@k, per k. */
  recall: Record<number, number>;
  /**
   * Answer found in the first k contexts a method returns, per k (the same amount of text for a method
   * that returns passages as for one that returns a passage per note): share of questions whose answer string
   * occurs (`contains`; yes/no questions excluded), or mean share of reference-answer words (`word-share`).
   */
  answerRecall: Record<number, number>;
  answerQuestions: number;
  /** The same answer score on the extractive answer a user sees (`loci ask` with no model); NaN for peers. */
  extractiveAnswer: number;
  /**
   * The same answer score on what a model reads when it answers: `ask`'s contexts as the answer prompt
   * gives them (generate.ts formatSources, each cut to its share of the prompt); NaN for peers.
   */
  sourcesAnswer: number;
  /** Retrieval alone. */
  latencyP50Ms: number;
  latencyP95Ms: number;
  /** `ask` with no model: retrieval of ASK_K contexts plus the extractive answer; NaN for peers. */
  askP50Ms: number;
  askP95Ms: number;
  /** Index build time: the shared Loci index for Loci methods, the library's own index for peers. */
  indexSeconds: number;
  /** Highest resident set size seen while this method was built and run. */
  peakRssMb: number;
  errors: number;
  /** Each question's scores, in the set's order (`--json`). */
  perQuestion: QuestionScore[];
}

export interface BenchReport {
  dataset: string;
  format: string;
  answerMetric: AnswerMetric;
  questions: number;
  paragraphs: number;
  ks: number[];
  embedder: string;
  indexSeconds: number;
  results: MethodResult[];
  /** loci's estimate of how far to trust the embedder on this corpus (its dense weight); null without a Loci index. */
  embedderTrust: EmbedderQuality | null;
}

export interface BenchOptions {
  methods: string[];
  ks: number[];
  embedder?: Embedder;
  /** Database file; a temporary one (deleted afterwards) when absent. */
  dbFile?: string;
  onProgress?: (message: string) => void;
  /** Runs on the built index before any method (issue 13: the model pass, so methods read model rows). */
  afterIndex?: (db: Db, embedder: Embedder) => Promise<void>;
}

/** Contexts `loci ask` retrieves by default (the CLI's and the app's k): the ask timing and answer use it. */
export const ASK_K = 8;
/** Contexts asked of a method per cut-off, so chunk-level rankings can fill k distinct documents. */
const RANKING_DEPTH = 2;

export const relPathOf = (i: number) => `p${i}.txt`;

/** The path a corpus document is indexed under: its own for notes, a synthetic one for dataset paragraphs. */
const pathOf = (p: BenchParagraph, i: number) => p.relPath ?? relPathOf(i);

/** Indexes the paragraphs as documents titled by their title (notes: as the app titles them); returns the seconds it took. */
export async function indexCorpus(db: Db, embedder: Embedder, corpus: BenchParagraph[], opts: Pick<IndexerOptions, 'factPathsLater'> = {}): Promise<number> {
  const started = performance.now();
  await indexTexts(
    db,
    embedder,
    'bench:',
    corpus.map((p, i) => ({ relPath: pathOf(p, i), title: p.relPath ? undefined : p.title, content: p.text })),
    opts,
  );
  return (performance.now() - started) / 1000;
}

const rssMb = () => process.memoryUsage().rss / 2 ** 20;

interface Ranked {
  /** The document of each context, in rank order (a document may recur). */
  docs: number[];
  /** Each context's text, in the same order. */
  texts: string[];
}

/** What the user sees with no model: the extractive answer's cited facts (without the fixed notice). */
interface Asked {
  text: string;
  ms: number;
  /** The same contexts as a model would read them. */
  sources: string;
}

function scoreAnswer(metric: AnswerMetric, text: string, answers: string[]): number | null {
  if (metric === 'word-share') return answers[0] === undefined ? null : wordShare(text, answers[0]);
  return answerFound(text, answers);
}

async function evaluate(
  name: string,
  ds: BenchDataset,
  ks: number[],
  indexSeconds: number,
  run: (question: string, k: number) => Promise<Ranked>,
  ask?: (question: string) => Promise<Asked>,
): Promise<MethodResult> {
  // recall@k counts the first k distinct documents; a method that returns chunks (bm25, dense, hybrid)
  // can give several of one note, so every method is asked for twice the deepest cut-off — with only k,
  // BM25 on the documentation sets lost a note in ten to its own second chunk, which flattered the rest.
  const maxK = RANKING_DEPTH * Math.max(...ks);
  const metric = ds.answerMetric ?? 'contains';
  let peak = rssMb();
  // One untimed query loads what the method caches (vectors, derived tables) so latency is per query.
  const first = ds.questions[0]!.question;
  await run(first, maxK).catch(() => undefined);
  if (ask) await ask(first).catch(() => undefined);
  const latencies: number[] = [];
  const askLatencies: number[] = [];
  const recall: Record<number, number[]> = Object.fromEntries(ks.map((k) => [k, []]));
  const answers: Record<number, number[]> = Object.fromEntries(ks.map((k) => [k, []]));
  const extractive: number[] = [];
  const sources: number[] = [];
  const perQuestion: QuestionScore[] = [];
  let errors = 0;
  for (const q of ds.questions) {
    const scores: QuestionScore = { id: q.id, recall: {}, answer: {}, shown: null, sources: null };
    perQuestion.push(scores);
    const started = performance.now();
    let ranked: Ranked;
    try {
      ranked = await run(q.question, maxK);
    } catch {
      errors++;
      ranked = { docs: [], texts: [] };
    }
    latencies.push(performance.now() - started);
    const docs = rankedDocuments(ranked.docs);
    for (const k of ks) {
      recall[k]!.push((scores.recall[k] = recallAtK(docs, q.gold, k)));
      const text = ranked.texts.slice(0, k).join('\n');
      const found = (scores.answer[k] = scoreAnswer(metric, text, q.answers));
      if (found !== null) answers[k]!.push(found);
    }
    if (ask) {
      try {
        const a = await ask(q.question);
        askLatencies.push(a.ms);
        const found = (scores.shown = scoreAnswer(metric, a.text, q.answers));
        if (found !== null) extractive.push(found);
        const read = (scores.sources = scoreAnswer(metric, a.sources, q.answers));
        if (read !== null) sources.push(read);
      } catch {
        errors++;
      }
    }
    peak = Math.max(peak, rssMb());
  }
  return {
    method: name,
    recall: Object.fromEntries(ks.map((k) => [k, mean(recall[k]!)])),
    answerRecall: Object.fromEntries(ks.map((k) => [k, mean(answers[k]!)])),
    answerQuestions: answers[ks[0]!]!.length,
    extractiveAnswer: ask ? mean(extractive) : NaN,
    sourcesAnswer: ask ? mean(sources) : NaN,
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    askP50Ms: ask ? percentile(askLatencies, 50) : NaN,
    askP95Ms: ask ? percentile(askLatencies, 95) : NaN,
    indexSeconds,
    peakRssMb: peak,
    errors,
    perQuestion,
  };
}

/** A corpus indexed once by Loci, on which several question sets (sharing that corpus) can be run. */
export interface PreparedIndex {
  readonly corpus: BenchParagraph[];
  readonly embedder: Embedder;
  readonly indexSeconds: number;
  readonly ctx: RetrievalContext;
  close(): void;
}

export async function prepareIndex(
  corpus: BenchParagraph[],
  embedder: Embedder,
  opts: Pick<BenchOptions, 'dbFile' | 'onProgress' | 'afterIndex'> & {
    /** The methods to be run: without pgr, PG-RAG's fact paths are left unembedded (hours with a CPU model). */
    methods?: string[];
  } = {},
): Promise<PreparedIndex> {
  const tempDir = opts.dbFile ? null : mkdtempSync(join(tmpdir(), 'loci-bench-'));
  const db = openDb(opts.dbFile ?? join(tempDir!, 'bench.db'));
  try {
    opts.onProgress?.(`indexing ${corpus.length} documents with ${embedder.id}…`);
    // The built-in embedder's fact-path vectors are made with the notes, at no extra cost: left for later
    // only with a model's.
    const factPathsLater = opts.methods !== undefined && !opts.methods.includes('pgr') && keptVectorsModel(embedder) !== null;
    const indexSeconds = await indexCorpus(db, embedder, corpus, { factPathsLater });
    await opts.afterIndex?.(db, embedder);
    return {
      corpus,
      embedder,
      indexSeconds,
      ctx: { db, embedder, cache: new IndexCache(db, embedder) },
      close() {
        db.close();
        if (tempDir) rmSync(tempDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    db.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    throw err;
  }
}

/** Peer indexes built per corpus, so question sets over one corpus build each peer once. */
const peerCache = new WeakMap<BenchParagraph[], Map<PeerName, { peer: PeerIndex; seconds: number }>>();

async function peerFor(name: PeerName, corpus: BenchParagraph[]): Promise<{ peer: PeerIndex; seconds: number }> {
  let byName = peerCache.get(corpus);
  if (!byName) peerCache.set(corpus, (byName = new Map()));
  let built = byName.get(name);
  if (!built) {
    const started = performance.now();
    const peer = await buildPeer(name, corpus);
    built = { peer, seconds: (performance.now() - started) / 1000 };
    byName.set(name, built);
  }
  return built;
}

/** Runs every method on one question set over an index prepared from the set's corpus (or, for peers only, none). */
export async function evaluateDataset(
  prepared: PreparedIndex | null,
  ds: BenchDataset,
  file: string,
  opts: Pick<BenchOptions, 'methods' | 'ks' | 'onProgress'> & { embedderId?: string },
): Promise<BenchReport> {
  checkMethods(opts.methods);
  const log = opts.onProgress ?? (() => undefined);
  if (prepared && prepared.corpus !== ds.corpus) throw new Error('the prepared index was built from another corpus');
  const docIndex = new Map(ds.corpus.map((p, i) => [pathOf(p, i), i]));
  const indexOf = (relPath: string) => docIndex.get(relPath) ?? -1;
  const results: MethodResult[] = [];
  for (const method of opts.methods) {
    log(`running ${method} on ${ds.questions.length} questions…`);
    if ((PEER_NAMES as string[]).includes(method)) {
      const { peer, seconds } = await peerFor(method as PeerName, ds.corpus);
      results.push(
        await evaluate(method, ds, opts.ks, seconds, async (question, k) => {
          const docs = await peer.search(question, k);
          return { docs, texts: docs.map((d) => `${ds.corpus[d]!.title}\n${ds.corpus[d]!.text}`) };
        }),
      );
      continue;
    }
    if (!prepared) throw new Error(`method ${method} needs a Loci index`);
    const ctx = prepared.ctx;
    const m = method as RetrievalMethod;
    results.push(
      await evaluate(
        method,
        ds,
        opts.ks,
        prepared.indexSeconds,
        async (question, k) => {
          // Cold per question: the ask below must not reuse this retrieval's analysis, nor this one an earlier ask's.
          ctx.cache.forgetQuestions();
          const { contexts } = await retrieve(ctx, question, m, k);
          return {
            docs: contexts.map((c) => indexOf(c.docPath)),
            texts: contexts.map((c) => (c.kind === 'chunk' ? `${c.docTitle}\n${c.text}` : c.text)),
          };
        },
        async (question) => {
          // What `loci ask` does with no model (engine.ask without the chat history write).
          ctx.cache.forgetQuestions();
          const started = performance.now();
          const { contexts, query } = await retrieve(ctx, question, m, ASK_K);
          const answer = await extractiveAnswer(ctx, question, contexts);
          const ms = performance.now() - started;
          const sources = formatSources(contexts, undefined, termMatcher(query.terms));
          // Scored as shown: the bullets, with the code or list a lead-in brings under them (the notice aside).
          return { ms, text: answer.text.replace(EXTRACTIVE_NOTICE, ''), sources };
        },
      ),
    );
  }
  return {
    dataset: file,
    format: ds.format,
    answerMetric: ds.answerMetric ?? 'contains',
    questions: ds.questions.length,
    paragraphs: ds.corpus.length,
    ks: opts.ks,
    embedder: prepared?.embedder.id ?? opts.embedderId ?? '–',
    indexSeconds: prepared?.indexSeconds ?? 0,
    results,
    embedderTrust: prepared ? await embedderQuality(prepared.ctx) : null,
  };
}

/** True when some method reads a Loci index (the peers build their own). */
export function needsLociIndex(methods: string[]): boolean {
  return methods.some((m) => (LOCI_METHODS as string[]).includes(m));
}

export async function runBench(ds: BenchDataset, file: string, opts: BenchOptions): Promise<BenchReport> {
  checkMethods(opts.methods);
  const embedder = opts.embedder ?? (await createStaticEmbedder());
  const prepared = needsLociIndex(opts.methods) ? await prepareIndex(ds.corpus, embedder, { dbFile: opts.dbFile, onProgress: opts.onProgress, afterIndex: opts.afterIndex, methods: opts.methods }) : null;
  try {
    return await evaluateDataset(prepared, ds, file, { ...opts, embedderId: embedder.id });
  } finally {
    prepared?.close();
  }
}
