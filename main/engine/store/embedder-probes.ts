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
 * Up to `n` prose sentences of at least `minChars` characters, spread evenly over the index's FCI ids
 * (so a folder's first notes do not stand for all of it): for each of n evenly spaced ids, the first such
 * sentence from there on. One indexed lookup each, where counting and numbering every FCI took 1.5 s at
 * 10k news articles.
 */
export function probeSentences(db: Db, n: number, minChars: number): ProbeSentence[] {
  const range = db.prepare('SELECT min(id) AS lo, max(id) AS hi FROM fcis').get() as { lo: number | null; hi: number | null };
  if (range.lo === null || range.hi === null || n <= 0) return [];
  const next = db.prepare(
    `SELECT f.id, f.text, f.chunk_id AS chunkId, f.document_id AS docId FROM fcis f JOIN chunks c ON c.id = f.chunk_id
     WHERE f.id >= ? AND c.is_code = 0 AND length(f.text) >= ? ORDER BY f.id LIMIT 1`,
  );
  const out = new Map<number, ProbeSentence>();
  const span = range.hi - range.lo + 1;
  for (let i = 0; i < n; i++) {
    const s = next.get(range.lo + Math.floor((i * span) / n), minChars) as ProbeSentence | undefined;
    if (s) out.set(s.id, s);
  }
  return [...out.values()];
}
