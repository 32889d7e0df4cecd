// Reads for the embedder-quality estimate (retrieve/embedder-quality.ts): sentences of the notes whose
// own note is known, to ask the embedder and BM25 to find that note again.
import type { Db } from './db.js';

export interface ProbeSentence {
  /** The FCI (a sentence of prose) the probe is made from. */
  id: number;
  text: string;
  chunkId: number;
  docId: number;
}

/**
 * Up to `n` prose sentences of at least `minChars` characters, spread evenly over the index in id order
 * (so a folder's first notes do not stand for all of it); the same sample for the same index.
 */
export function probeSentences(db: Db, n: number, minChars: number): ProbeSentence[] {
  const total = (db.prepare('SELECT count(*) AS n FROM fcis f JOIN chunks c ON c.id = f.chunk_id WHERE c.is_code = 0 AND length(f.text) >= ?').get(minChars) as { n: number }).n;
  if (total === 0 || n <= 0) return [];
  const step = Math.max(1, Math.floor(total / n));
  return db
    .prepare(
      `SELECT id, text, chunkId, docId FROM (
         SELECT f.id, f.text, f.chunk_id AS chunkId, f.document_id AS docId, row_number() OVER (ORDER BY f.id) - 1 AS i
         FROM fcis f JOIN chunks c ON c.id = f.chunk_id WHERE c.is_code = 0 AND length(f.text) >= ?)
       WHERE i % ? = 0 LIMIT ?`,
    )
    .all(minChars, step, n) as ProbeSentence[];
}
