import type { Retriever } from './retriever.js';
import type { Db } from '../store/db.js';
import type { Scored } from '../embed/vector-matrix.js';
import { queryTerms } from '../text/segment.js';
import { chunkContexts } from './contexts.js';
import { searchChunks } from '../store/chunks.js';

/** An FTS5 MATCH expression: any of the question's terms, each quoted so no term is read as syntax. */
export function ftsQuery(question: string): string | null {
  const terms = [...new Set(queryTerms(question))].filter((t) => t.length > 0);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

/** BM25 over chunks (title, heading path and text, pre-segmented). Higher score is better. */
export function bm25Chunks(db: Db, question: string, k: number): Scored[] {
  const match = ftsQuery(question);
  if (!match) return [];
  const rows = searchChunks(db, match, k);
  return rows.map((r) => ({ id: r.id, score: -r.rank }));
}

export const bm25Retriever: Retriever = async (ctx, question, k) => ({
  contexts: chunkContexts(ctx.db, bm25Chunks(ctx.db, question, k)),
});
