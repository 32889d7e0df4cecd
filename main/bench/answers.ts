// `loci bench --answer <model>`: does retrieval help the model answer? The same model answers every
// question three ways in one run — from `loci` contexts, from bm25 contexts, and with no context — through
// the product's own answer path (generateAnswer: numbered sources, citations cleaned). Scored with
// SQuAD-style exact match and token F1 against the gold answers and aliases, and containment (a gold
// answer appears in the reply). Yes/no questions are scored like any other.
import { generateAnswer } from '../engine/answer/generate.js';
import type { BenchDataset } from './dataset.js';
import { normalizeAnswer } from './metrics.js';
import { prepareIndex, type BenchOptions, type PreparedIndex } from './runner.js';
import type { Embedder } from '../engine/embed/embedder.js';
import { createStaticEmbedder } from '../engine/embed/static-embedder.js';
import { retrieve } from '../engine/retrieve/index.js';
import type { RetrievedContext } from '../engine/types.js';
import { openLlm, type OpenLlmOptions } from '../engine/llm/open.js';

export type AnswerCondition = 'loci' | 'bm25' | 'none';

export interface AnswerBenchOptions extends OpenLlmOptions {
  model: string;
  /** Contexts given to the model per question. */
  k?: number;
  conditions?: AnswerCondition[];
  maxTokens?: number;
  embedder?: Embedder;
  /** An index kept by `loci bench --db` (e.g. with model rows): reused as it is, not deleted; a temporary fast-mode one when absent. */
  dbFile?: string;
  /** Run over the index once built (the model pass of `loci bench --model`), so answers read the rows retrieval was measured on. */
  afterIndex?: BenchOptions['afterIndex'];
  /** An index the caller built (and closes), e.g. the one `loci bench` just measured retrieval on. */
  prepared?: PreparedIndex;
  onProgress?: (m: string) => void;
}

export interface AnswerConditionResult {
  condition: AnswerCondition;
  exactMatch: number;
  f1: number;
  containment: number;
  tokensPerAnswer: number;
  secondsPerAnswer: number;
}

export interface AnswerBenchReport {
  model: string;
  questions: number;
  k: number;
  embedder: string;
  results: AnswerConditionResult[];
}

/** Token F1 between a reply and one gold answer, on normalised words. */
export function tokenF1(reply: string, gold: string): number {
  const r = normalizeAnswer(reply).split(' ').filter(Boolean);
  const g = normalizeAnswer(gold).split(' ').filter(Boolean);
  if (!r.length || !g.length) return r.length === g.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const w of g) counts.set(w, (counts.get(w) ?? 0) + 1);
  let same = 0;
  for (const w of r) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      same++;
      counts.set(w, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / r.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The reply scored against every gold alias (best alias counts), citations removed first. */
export function scoreReply(reply: string, answers: string[]): { em: number; f1: number; contains: number } {
  const text = reply.replace(/\[\d+\]/g, ' ');
  const norm = normalizeAnswer(text);
  let em = 0;
  let f1 = 0;
  let contains = 0;
  for (const a of answers) {
    const gold = normalizeAnswer(a);
    if (!gold) continue;
    if (norm === gold) em = 1;
    f1 = Math.max(f1, tokenF1(text, a));
    if (` ${norm} `.includes(` ${gold} `)) contains = 1;
  }
  return { em, f1, contains };
}

export async function runAnswerBench(ds: BenchDataset, opts: AnswerBenchOptions): Promise<AnswerBenchReport> {
  const log = opts.onProgress ?? (() => undefined);
  const k = opts.k ?? 5;
  const conditions = opts.conditions ?? ['loci', 'bm25', 'none'];
  const embedder = opts.prepared?.embedder ?? opts.embedder ?? (await createStaticEmbedder());
  const llm = await openLlm(opts.model, opts);
  // Unchanged paragraphs of a kept index keep their rows (model rows too); missing ones get fast rows.
  const prepared =
    opts.prepared ??
    (await prepareIndex(ds.corpus, embedder, { dbFile: opts.dbFile, onProgress: log, afterIndex: opts.afterIndex }).catch(async (err: unknown) => {
      await llm.close();
      throw err;
    }));
  const { ctx } = prepared;
  try {
    const sums = new Map(conditions.map((c) => [c, { em: 0, f1: 0, contains: 0, tokens: 0, seconds: 0 }]));
    for (const [i, q] of ds.questions.entries()) {
      for (const condition of conditions) {
        log(`question ${i + 1}/${ds.questions.length}, ${condition}`);
        const retrieved = condition === 'none' ? null : await retrieve(ctx, q.question, condition, k);
        const contexts: RetrievedContext[] = retrieved?.contexts ?? [];
        const started = performance.now();
        const reply = await generateAnswer(llm, q.question, contexts, { maxTokens: opts.maxTokens ?? 32, lang: 'en', terms: retrieved?.query.terms });
        const s = sums.get(condition)!;
        const score = scoreReply(reply.text, q.answers);
        s.em += score.em;
        s.f1 += score.f1;
        s.contains += score.contains;
        s.tokens += reply.tokens;
        s.seconds += (performance.now() - started) / 1000;
      }
    }
    const n = Math.max(1, ds.questions.length);
    return {
      model: llm.id,
      questions: ds.questions.length,
      k,
      embedder: embedder.id,
      results: conditions.map((condition) => {
        const s = sums.get(condition)!;
        return { condition, exactMatch: s.em / n, f1: s.f1 / n, containment: s.contains / n, tokensPerAnswer: s.tokens / n, secondsPerAnswer: s.seconds / n };
      }),
    };
  } finally {
    await llm.close();
    if (!opts.prepared) prepared.close();
  }
}

export function formatAnswerReport(r: AnswerBenchReport): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}`.padStart(7);
  return [
    `answers by ${r.model} on ${r.questions} questions, ${r.k} contexts each (embedder ${r.embedder})`,
    `  context     EM%     F1%  contain%  tokens  s/answer`,
    ...r.results.map(
      (x) => `  ${x.condition.padEnd(8)}${pct(x.exactMatch)} ${pct(x.f1)} ${pct(x.containment)}   ${x.tokensPerAnswer.toFixed(0).padStart(5)}  ${x.secondsPerAnswer.toFixed(1).padStart(7)}`,
    ),
  ].join('\n');
}
