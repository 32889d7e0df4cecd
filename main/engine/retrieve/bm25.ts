import type { Retriever } from './retriever.js';
import { chunkContexts } from './contexts.js';
import { analyseQuery, bm25Ranking, ftsMatchOf } from './query.js';
import { queryTerms } from '../text/segment.js';

/** An FTS5 MATCH expression: any of the question's terms, each quoted so no term is read as syntax. */
export function ftsQuery(question: string): string | null {
  return ftsMatchOf(queryTerms(question));
}

/**
 * BM25's inverse document frequency (Lucene's, never negative) of a term found in `df` of `n` documents:
 * the one weight the word, bigram, title, proximity and passage-choice scorers share.
 */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25 over chunks (title, heading path and text, pre-segmented). Higher score is better. */
export const bm25Retriever: Retriever = async (ctx, question, k) => {
  const qa = await analyseQuery(ctx, question);
  return { contexts: chunkContexts(ctx.db, bm25Ranking(ctx, qa, k)), query: qa };
};
