import type { Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import type { RetrievedContext } from '../types.js';
import { IndexCache } from './index-cache.js';

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
}

export type Retriever = (ctx: RetrievalContext, question: string, k: number) => Promise<RetrievalResult>;
