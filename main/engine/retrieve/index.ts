import type { RetrievalMethod } from '../types.js';
import type { RetrievalContext, RetrievalResult, Retriever } from './retriever.js';
import { bm25Retriever } from './bm25.js';
import { denseRetriever } from './dense.js';
import { hybridRetriever } from './hybrid.js';
import { higRetriever } from './hig/retriever.js';
import { pgrRetriever } from './pgr/retriever.js';
import { lociRetriever } from './loci.js';
import { pprRetriever } from './ppr.js';

const retrievers: Partial<Record<RetrievalMethod, Retriever>> = {
  bm25: bm25Retriever,
  dense: denseRetriever,
  hybrid: hybridRetriever,
  hig: higRetriever,
  pgr: pgrRetriever,
  ppr: pprRetriever,
  loci: lociRetriever,
};

/**
 * What a method reads beyond the index, so a caller pays only for that: PG-RAG's key points cost a model
 * generation per question, and only pgr reads them (loci, hig and the rest ignore them).
 */
const NEEDS_KEY_POINTS: ReadonlySet<RetrievalMethod> = new Set(['pgr']);

export function needsKeyPoints(method: RetrievalMethod): boolean {
  return NEEDS_KEY_POINTS.has(method);
}

/** Chosen by measurement (loci bench, fast mode): best recall@5 on HotpotQA, MuSiQue and 2Wiki. */
export const DEFAULT_METHOD: RetrievalMethod = 'loci';

export function availableMethods(): RetrievalMethod[] {
  return Object.keys(retrievers) as RetrievalMethod[];
}

export async function retrieve(ctx: RetrievalContext, question: string, method: RetrievalMethod, k: number): Promise<RetrievalResult> {
  const r = retrievers[method];
  if (!r) throw new Error(`Unknown retrieval method '${method}'. Available: ${availableMethods().join(', ')}`);
  return r(ctx, question, k);
}
