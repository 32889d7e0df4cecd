import type { Retriever } from './retriever.js';
import { chunkContexts } from './contexts.js';
import { analyseQuery, denseRanking } from './query.js';

/** Cosine similarity between the question and every chunk's vector. */
export const denseRetriever: Retriever = async (ctx, question, k) => {
  const qa = await analyseQuery(ctx, question);
  return { contexts: chunkContexts(ctx.db, denseRanking(ctx, qa, k)), query: qa };
};
