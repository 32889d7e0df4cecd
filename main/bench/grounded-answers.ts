// `loci bench-grounding`: the extractive answer against a model's generated, grounded answer, side by side on
// the dev sets (Wikipedia multi-hop and the documentation notes folders), from the same `loci` contexts per
// question. Scored: EM / token F1 / containment of the gold answer (citation marks removed); citation
// precision — the share of cited sources that lie in a gold note (the model's own marks, and the marks after
// grounding); the share of claim sentences grounding finds supported; seconds per answer. Paired differences
// (generated − extractive) carry 95% bootstrap intervals.
import { EXTRACTIVE_NOTICE, extractiveAnswer } from '../engine/answer/extractive.js';
import { generateAnswer } from '../engine/answer/generate.js';
import { groundAnswer } from '../engine/answer/grounding.js';
import type { Embedder } from '../engine/embed/embedder.js';
import { openLlm } from '../engine/llm/open.js';
import type { LlmProvider } from '../engine/llm/provider.js';
import { retrieve } from '../engine/retrieve/index.js';
import type { RetrievedContext } from '../engine/types.js';
import { scoreReply } from './answers.js';
import type { BenchDataset } from './dataset.js';
import { pairedBootstrap, type Interval } from './paired.js';
import { keptIndexFile, suiteGroups } from './suite.js';
import { table } from './report-table.js';
import { prepareIndex, relPathOf, type PreparedIndex } from './runner.js';

export interface GroundingBenchOptions {
  model: string;
  dataDir: string;
  sets: string[];
  /** The first n questions of each set. */
  limit?: number;
  /** Contexts per question (as `ask` gives a model). */
  k?: number;
  maxTokens?: number;
  /** llama.cpp threads (others share the cores: 1 by default). */
  threads?: number;
  indexDir?: string;
  onProgress?: (m: string) => void;
}

interface PerAnswer {
  em: number;
  f1: number;
  contains: number;
  /** Cited sources in a gold note / cited sources (null when nothing is cited). */
  citePrecision: number | null;
  /** The model's own marks, before grounding (generated only). */
  rawCitePrecision: number | null;
  claims: number;
  supported: number;
  seconds: number;
}

export interface AnswerSide {
  exactMatch: number;
  f1: number;
  containment: number;
  citationPrecision: number;
  /** Answers that cite anything. */
  citingShare: number;
  rawCitationPrecision?: number;
  rawCitingShare?: number;
  groundedShare: number;
  secondsPerAnswer: number;
}

export interface GroundingSetReport {
  name: string;
  questions: number;
  extractive: AnswerSide;
  generated: AnswerSide;
  /** generated − extractive, per question. */
  diff: { f1: Interval; containment: Interval };
}

export interface GroundingBenchReport {
  model: string;
  embedder: string;
  k: number;
  maxTokens: number;
  threads: number;
  sets: GroundingSetReport[];
  skipped: { name: string; reason: string }[];
}

export async function runGroundingBench(embedder: Embedder, o: GroundingBenchOptions): Promise<GroundingBenchReport> {
  const log = o.onProgress ?? (() => undefined);
  const k = o.k ?? 5;
  const maxTokens = o.maxTokens ?? 128;
  const threads = o.threads ?? 1;
  const llm = await openLlm(o.model, { threads, sequences: 1 });
  const skipped: GroundingBenchReport['skipped'] = [];
  const sets: GroundingSetReport[] = [];
  try {
    for (const g of suiteGroups({ dataDir: o.dataDir, methods: ['loci'], ks: [k], sets: o.sets }, skipped)) {
      const corpus = g.sets[0]!.ds.corpus;
      const dbFile = o.indexDir ? keptIndexFile(o.indexDir, g.key, embedder.id) : undefined;
      const prepared = await prepareIndex(corpus, embedder, { dbFile, onProgress: log, methods: ['loci'] });
      try {
        for (const s of g.sets) {
          const ds: BenchDataset = { ...s.ds, questions: s.ds.questions.slice(0, o.limit ?? s.ds.questions.length) };
          sets.push(await evaluateGroundingSet(s.name, ds, prepared, llm, { k, maxTokens, onProgress: log }));
        }
      } finally {
        prepared.close();
      }
    }
  } finally {
    await llm.close();
  }
  return { model: llm.id, embedder: embedder.id, k, maxTokens, threads, sets, skipped };
}

/** One set over its prepared index: each question's `loci` contexts answered both ways. */
export async function evaluateGroundingSet(
  name: string,
  ds: BenchDataset,
  prepared: PreparedIndex,
  llm: LlmProvider,
  o: { k: number; maxTokens: number; onProgress?: (m: string) => void },
): Promise<GroundingSetReport> {
  const { ctx, embedder } = prepared;
  const docIndex = new Map(ds.corpus.map((p, i) => [p.relPath ?? relPathOf(i), i]));
  const ext: PerAnswer[] = [];
  const gen: PerAnswer[] = [];
  for (const [i, q] of ds.questions.entries()) {
    o.onProgress?.(`${name}: question ${i + 1}/${ds.questions.length}`);
    ctx.cache.forgetQuestions();
    const started = performance.now();
    const { contexts, query } = await retrieve(ctx, q.question, 'loci', o.k);
    const retrieval = (performance.now() - started) / 1000;
    const gold = new Set(q.gold);
    const precision = (ns: number[]) => (ns.length ? ns.filter((n) => inGold(contexts[n - 1], docIndex, gold)).length / ns.length : null);

    const t0 = performance.now();
    const e = await extractiveAnswer(ctx, q.question, contexts, 5, query);
    const eText = e.text.replace(EXTRACTIVE_NOTICE, '').trim();
    const eSeconds = retrieval + (performance.now() - t0) / 1000;
    // The extractive answer quotes the notes: grounding it checks the scorer, which should find it supported.
    const eGround = await groundAnswer(eText, contexts, { embedder });
    const eClaims = eGround.support.filter((x) => x.claim);
    ext.push({
      ...scoreReply(eText, q.answers),
      citePrecision: precision(e.citations.map((c) => c.n)),
      rawCitePrecision: null,
      claims: eClaims.length,
      supported: eClaims.filter((x) => x.supported).length,
      seconds: eSeconds,
    });

    const t1 = performance.now();
    const r = await generateAnswer(llm, q.question, contexts, { maxTokens: o.maxTokens, lang: 'en', terms: query.terms, embedder });
    const claims = r.support.filter((x) => x.claim);
    gen.push({
      ...scoreReply(r.text, q.answers),
      citePrecision: precision(r.citations),
      rawCitePrecision: precision([...new Set(r.support.flatMap((x) => x.cited))]),
      claims: claims.length,
      supported: claims.filter((x) => x.supported).length,
      seconds: retrieval + (performance.now() - t1) / 1000,
    });
  }
  return {
    name,
    questions: ds.questions.length,
    extractive: side(ext, false),
    generated: side(gen, true),
    diff: {
      f1: pairedBootstrap(gen.map((x, i) => x.f1 - ext[i]!.f1)),
      containment: pairedBootstrap(gen.map((x, i) => x.contains - ext[i]!.contains)),
    },
  };
}

function inGold(c: RetrievedContext | undefined, docIndex: Map<string, number>, gold: Set<number>): boolean {
  return c !== undefined && gold.has(docIndex.get(c.docPath) ?? -1);
}

function side(xs: PerAnswer[], withRaw: boolean): AnswerSide {
  const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);
  const cites = xs.flatMap((x) => (x.citePrecision === null ? [] : [x.citePrecision]));
  const raw = xs.flatMap((x) => (x.rawCitePrecision === null ? [] : [x.rawCitePrecision]));
  const claims = xs.reduce((a, x) => a + x.claims, 0);
  return {
    exactMatch: mean(xs.map((x) => x.em)),
    f1: mean(xs.map((x) => x.f1)),
    containment: mean(xs.map((x) => x.contains)),
    citationPrecision: mean(cites),
    citingShare: xs.length ? cites.length / xs.length : NaN,
    ...(withRaw ? { rawCitationPrecision: mean(raw), rawCitingShare: xs.length ? raw.length / xs.length : NaN } : {}),
    groundedShare: claims ? xs.reduce((a, x) => a + x.supported, 0) / claims : NaN,
    secondsPerAnswer: mean(xs.map((x) => x.seconds)),
  };
}

export function formatGroundingReport(r: GroundingBenchReport): string {
  const p = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : (100 * x).toFixed(1));
  const ci = (i: Interval) => `${(100 * i.mean).toFixed(1)} [${(100 * i.lo).toFixed(1)}, ${(100 * i.hi).toFixed(1)}]`;
  const rows = r.sets.flatMap((s) => [
    [`${s.name} (${s.questions}q)`, 'extractive', p(s.extractive.exactMatch), p(s.extractive.f1), p(s.extractive.containment), `${p(s.extractive.citationPrecision)} (${p(s.extractive.citingShare)})`, '–', p(s.extractive.groundedShare), s.extractive.secondsPerAnswer.toFixed(2)],
    ['', 'generated', p(s.generated.exactMatch), p(s.generated.f1), p(s.generated.containment), `${p(s.generated.citationPrecision)} (${p(s.generated.citingShare)})`, `${p(s.generated.rawCitationPrecision)} (${p(s.generated.rawCitingShare)})`, p(s.generated.groundedShare), s.generated.secondsPerAnswer.toFixed(2)],
  ]);
  return [
    `extractive vs generated by ${r.model} (grounded), ${r.k} loci contexts each, ≤${r.maxTokens} tokens, ${r.threads} thread(s), embedder ${r.embedder}`,
    ...table(['set', 'answer', 'EM%', 'F1%', 'contain%', 'cite prec% (answers citing%)', "model's own marks", 'grounded%', 's/answer'], rows),
    '',
    'generated − extractive, per question (mean [95% bootstrap interval], points)',
    ...table(['set', 'F1', 'containment'], r.sets.map((s) => [s.name, ci(s.diff.f1), ci(s.diff.containment)])),
    ...(r.skipped.length ? ['', 'not run here: ' + r.skipped.map((s) => `${s.name} (${s.reason})`).join('; ')] : []),
  ].join('\n');
}
