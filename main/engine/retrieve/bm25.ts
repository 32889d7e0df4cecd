import type { Retriever } from './retriever.js';
import { chunkContexts } from './contexts.js';
import { analyseQuery, bm25Ranking, ftsMatchOf } from './query.js';
import { queryTerms } from '../text/segment.js';

/** An FTS5 MATCH expression: any of the question's terms, each quoted so no term is read as syntax. */
export function ftsQuery(question: string): string | null {
  return ftsMatchOf(queryTerms(question));
}

/** BM25 over chunks (title, heading path and text, pre-segmented). Higher score is better. */
export const bm25Retriever: Retriever = async (ctx, question, k) => {
  const qa = await analyseQuery(ctx, question);
  return { contexts: chunkContexts(ctx.db, bm25Ranking(ctx, qa, k)), query: qa };
};
