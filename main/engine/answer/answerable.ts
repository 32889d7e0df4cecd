// Whether the retrieved contexts answer the question. Retrieval always returns its k best passages, so an
// off-topic question ("What is the capital of Peru?" of coffee notes) used to get five confident citations.
// The decision is a logistic score over signals retrieval already has: how much of the question's weight
// (BM25 IDF over the whole index) the best passage and the passages together hold, how much of it no note
// holds at all, how close the nearest passage's vector is, and whether BM25 and the vectors agree on the
// notes. The weights are fitted by `loci bench-answerable` on the dev sets, with unanswerable copies
// built by removing the gold notes (docs/benchmarks.md has the figures and the command).
import type { RetrievedContext } from '../types.js';
import type { RetrievalContext } from '../retrieve/retriever.js';
import { bm25Ranking, denseRanking, type QueryAnalysis } from '../retrieve/query.js';
import { bm25Idf } from '../retrieve/bm25.js';
import { chunkDocumentFrequencies } from '../store/retrieval.js';
import { chunkDocuments } from '../retrieve/rank-fusion.js';
import { termMatcher } from './term-match.js';

/** The signals, each in [0, 1]. */
export interface AnswerSignals {
  /** IDF-weighted share of the question's terms held by the best one of the first BEST_OF contexts. */
  best: number;
  /** IDF-weighted share held by the contexts together. */
  together: number;
  /** IDF-weighted share of the terms no passage in the index holds (a name the notes never use). */
  absent: number;
  /** Cosine of the question to its nearest passage (0 when below). */
  dense: number;
  /** Share of BM25's first AGREE_DEPTH notes that the vector ranking also puts in its first AGREE_DEPTH. */
  agree: number;
}

export interface Answerability {
  answerable: boolean;
  /** Calibrated probability that the notes answer the question (0–1). */
  score: number;
  signals: AnswerSignals;
}

/** Contexts whose best single coverage counts (a passage further down rarely holds the answer alone). */
const BEST_OF = 3;
const AGREE_DEPTH = 5;

/**
 * Logistic weights over the signals, in AnswerSignals' order, and the bias; fitted by
 * `loci bench-answerable` (main/bench/answerable.ts) on every dev set, with glove and the loci method.
 */
export const WEIGHTS: Readonly<Record<keyof AnswerSignals, number>> = { best: 2.89, together: 2.08, absent: -1.03, dense: 0.06, agree: 1.1 };
export const BIAS = -3.75;
/** The score from which the notes are taken to answer. */
export const THRESHOLD = 0.46;

export const SIGNAL_NAMES = Object.keys(WEIGHTS) as (keyof AnswerSignals)[];

/** The signals for a question and the contexts retrieved for it. */
export function answerSignals(ctx: RetrievalContext, qa: QueryAnalysis, contexts: readonly RetrievedContext[]): AnswerSignals {
  const none: AnswerSignals = { best: 0, together: 0, absent: 1, dense: 0, agree: 0 };
  if (qa.terms.length === 0 || contexts.length === 0) return none;
  const docOf = chunkDocuments(ctx);
  const chunks = docOf.size;
  const df = chunkDocumentFrequencies(ctx.db, qa.terms);
  const idf = df.map((d) => bm25Idf(chunks, d));
  const total = idf.reduce((a, b) => a + b, 0) || 1;
  const match = termMatcher(qa.terms, qa.variants);
  const weight = (held: Set<string>) => qa.terms.reduce((sum, t, i) => sum + (held.has(t) ? idf[i]! : 0), 0) / total;
  const held = contexts.map((c) => match.termsIn(`${c.docTitle}\n${c.factPath ?? ''}\n${c.text}`));
  const best = Math.max(...held.slice(0, BEST_OF).map(weight));
  const together = weight(new Set(held.flatMap((s) => [...s])));
  const absent = qa.terms.reduce((sum, _t, i) => sum + (df[i] === 0 ? idf[i]! : 0), 0) / total;
  const nearest = denseRanking(ctx, qa, AGREE_DEPTH);
  const dense = Math.max(0, nearest[0]?.score ?? 0);
  const notes = (list: { id: number }[]) => new Set(list.map((s) => docOf.get(s.id)).filter((d) => d !== undefined));
  const lexical = notes(bm25Ranking(ctx, qa, AGREE_DEPTH));
  const vector = notes(nearest);
  const agree = lexical.size ? [...lexical].filter((d) => vector.has(d)).length / lexical.size : 0;
  return { best, together, absent, dense, agree };
}

/** The calibrated score of signals under the given weights. */
export function answerScore(s: AnswerSignals, weights: Readonly<Record<keyof AnswerSignals, number>> = WEIGHTS, bias = BIAS): number {
  const z = SIGNAL_NAMES.reduce((sum, k) => sum + weights[k] * s[k], bias);
  return 1 / (1 + Math.exp(-z));
}

/** Whether the contexts answer the question, with the score and the signals it came from. */
export function answerability(ctx: RetrievalContext, qa: QueryAnalysis, contexts: readonly RetrievedContext[]): Answerability {
  const signals = answerSignals(ctx, qa, contexts);
  const score = answerScore(signals);
  return { answerable: score >= THRESHOLD, score, signals };
}
