import type { Retriever, RetrievalContext } from './retriever.js';
import type { Scored } from '../embed/vector-matrix.js';
import { chunkContexts } from './contexts.js';

export async function denseChunks(ctx: RetrievalContext, question: string, k: number): Promise<Scored[]> {
  const q = await ctx.cache.embedQuery(question);
  return ctx.cache.matrix('chunk').search(q, k);
}

/** Cosine similarity between the question and every chunk's vector. */
export const denseRetriever: Retriever = async (ctx, question, k) => ({
  contexts: chunkContexts(ctx.db, await denseChunks(ctx, question, k)),
});
