// Chunk reads for retrieval: full-text search over chunks, and chunks with their note by id.
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** BM25 over chunks_fts for an FTS5 MATCH expression; `rank` is FTS5's (lower is better). */
export function searchChunks(db: Db, match: string, k: number): { id: number; rank: number }[] {
  return stmt(db, 'SELECT rowid AS id, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?').all(match, k) as {
    id: number;
    rank: number;
  }[];
}

export interface ChunkWithDocument {
  id: number;
  text: string;
  /** JSON array of headings above the chunk. */
  heading_path: string;
  line_from: number;
  line_to: number;
  document_id: number;
  rel_path: string;
  title: string;
}

/** The chunks with these ids, each with its note's path and title (order not kept: callers map by id). */
export function chunksWithDocuments(db: Db, ids: number[]): ChunkWithDocument[] {
  return stmt(
    db,
    `SELECT c.id, c.text, c.heading_path, c.line_from, c.line_to, c.document_id, d.rel_path, d.title
     FROM json_each(?) j CROSS JOIN chunks c ON c.id = j.value JOIN documents d ON d.id = c.document_id`,
  ).all(JSON.stringify(ids)) as ChunkWithDocument[];
}
