// Reads of passage choice (retrieve/passage-choice.ts): how many passages and notes there are, and which
// passage follows a lead-in. How many passages hold a term is retrieval.ts's chunkDocumentFrequencies.
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { indexedDocumentCount } from './graph-queries.js';

/** How many passages and indexed notes the index holds (two whole-table counts, once per index generation). */
export function passageCounts(db: Db): { passages: number; notes: number } {
  return { passages: stmt(db, 'SELECT count(*) FROM chunks').pluck().get() as number, notes: indexedDocumentCount(db) };
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
