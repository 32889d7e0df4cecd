// Reads of passage choice (retrieve/passage-choice.ts) and of the spans passages are shown in
// (retrieve/passage-spans.ts): how many passages and notes there are, and which passages share a section.
// How many passages hold a term is retrieval.ts's chunkDocumentFrequencies.
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { indexedDocumentCount } from './graph-queries.js';

/** How many passages and indexed notes the index holds (two whole-table counts, once per index generation). */
export function passageCounts(db: Db): { passages: number; notes: number } {
  return { passages: stmt(db, 'SELECT count(*) FROM chunks').pluck().get() as number, notes: indexedDocumentCount(db) };
}

/** A passage of a note's section, in the note's order (sectionPassages). */
export interface SectionPassage {
  /** The passage whose section this is. */
  of: number;
  id: number;
  ord: number;
  chars: number;
}

/**
 * For each passage, the passages of its note under the same heading or a heading below it (its
 * subsections), in the note's order, the passage itself included. A passage before the note's first
 * heading has only the others before that heading: the note's opening does not take in the whole note.
 */
export function sectionPassages(db: Db, ids: number[]): SectionPassage[] {
  // heading_path is a JSON array: a subsection's path is its section's with more elements, so it starts
  // with the section's text up to (not including) the closing bracket, followed by a comma.
  return stmt(
    db,
    `SELECT c.id AS of, n.id, n.ord, length(n.text) AS chars
     FROM chunks c JOIN chunks n ON n.document_id = c.document_id
       AND (n.heading_path = c.heading_path
         OR (length(n.heading_path) > length(c.heading_path)
           AND substr(n.heading_path, 1, length(c.heading_path)) = substr(c.heading_path, 1, length(c.heading_path) - 1) || ','))
     WHERE c.id IN (SELECT value FROM json_each(?))
     ORDER BY c.id, n.ord`,
  ).all(JSON.stringify(ids)) as SectionPassage[];
}
