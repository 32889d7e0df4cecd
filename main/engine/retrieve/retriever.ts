import type { Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import type { RetrievedContext } from '../types.js';
import { IndexCache } from './index-cache.js';
import type { QueryAnalysis } from './query.js';

export { IndexCache };

export interface RetrievalContext {
  db: Db;
  embedder: Embedder;
  cache: IndexCache;
  /** Key points of the question written by a model (PG-RAG); fast mode derives its own. */
  keyPoints?: string[];
}

export interface RetrievalResult {
  contexts: RetrievedContext[];
  explanation?: unknown;
  /** The analysed question, with the rankings computed for it (the extractive and generated answers reuse them). */
  query: QueryAnalysis;
}

export type Retriever = (ctx: RetrievalContext, question: string, k: number) => Promise<RetrievalResult>;
