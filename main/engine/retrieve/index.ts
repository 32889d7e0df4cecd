import type { RetrievalMethod } from '../types.js';
import type { RetrievalContext, RetrievalResult } from './retriever.js';
import { METHOD_NAMES, methodEntry } from './registry.js';

/** What a method reads beyond the index, so a caller pays only for that (registry.ts `needs`). */
export function needsKeyPoints(method: RetrievalMethod): boolean {
  return methodEntry(method).needs.keyPoints;
}

/** Chosen by measurement (loci bench, fast mode): best recall@5 on HotpotQA, MuSiQue and 2Wiki. */
export const DEFAULT_METHOD: RetrievalMethod = 'loci';

export function availableMethods(): RetrievalMethod[] {
  return [...METHOD_NAMES];
}

export async function retrieve(ctx: RetrievalContext, question: string, method: RetrievalMethod, k: number): Promise<RetrievalResult> {
  return methodEntry(method).run(ctx, question, k);
}
