import type { Retriever } from './retriever.js';
import type { Scored } from '../embed/vector-matrix.js';
import { chunkContexts } from './contexts.js';
import { analyseQuery, bm25Ranking, denseRanking } from './query.js';

/** The constant of reciprocal rank fusion (Cormack et al.): damps the weight of the very top ranks. */
export const RRF_K = 60;

/** Reciprocal rank fusion of several rankings: score = Σ 1 / (RRF_K + rank). */
export function reciprocalRankFusion(rankings: Scored[][], k: number): Scored[] {
  const fused = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((s, rank) => fused.set(s.id, (fused.get(s.id) ?? 0) + 1 / (RRF_K + rank + 1)));
  }
  return [...fused.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

export const hybridRetriever: Retriever = async (ctx, question, k) => {
  const qa = await analyseQuery(ctx, question);
  const depth = Math.max(k * 4, 40);
  const fused = reciprocalRankFusion([bm25Ranking(ctx, qa, depth), denseRanking(ctx, qa, depth)], k);
  return { contexts: chunkContexts(ctx.db, fused), query: qa };
};
