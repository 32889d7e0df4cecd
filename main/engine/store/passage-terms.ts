// Reads of passage choice (retrieve/passage-choice.ts): how many passages hold a term, and how many
// passages there are, both from the chunk index BM25 itself searches; which passage follows a lead-in.
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** Passages whose indexed text (title, heading path, text) holds the term, stemmed as BM25 stems it. */
export function passagesWithTerm(db: Db, term: string): number {
  const row = stmt(db, 'SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?').get(`"${term.replaceAll('"', '""')}"`) as { n: number };
  return row.n;
}

/** How many passages and notes the index holds. */
export function passageCounts(db: Db): { passages: number; notes: number } {
  return stmt(db, 'SELECT (SELECT count(*) FROM chunks) AS passages, (SELECT count(*) FROM documents) AS notes').get() as { passages: number; notes: number };
}

/** Each passage's text and the passage after it under the same heading of the same note (null: none). */
export function passagesAndNext(db: Db, ids: number[]): { id: number; text: string; next: number | null }[] {
  return stmt(
    db,
    `SELECT c.id, c.text,
       (SELECT n.id FROM chunks n WHERE n.document_id = c.document_id AND n.heading_path = c.heading_path AND n.line_from > c.line_from
        ORDER BY n.line_from LIMIT 1) AS next
     FROM chunks c WHERE c.id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as { id: number; text: string; next: number | null }[];
}
