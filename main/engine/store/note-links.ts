// What links and tags are read from: a note's links as written, and what its tags come from (front
// matter and the text of its prose passages). Resolution and tag parsing live in graph/note-links.ts.
import type { Db } from './db.js';
import { stmt } from './statements.js';

export interface WrittenLink {
  docId: number;
  target: string;
  line: number;
}

export function linksWrittenIn(db: Db, docId: number): WrittenLink[] {
  return stmt(db, 'SELECT document_id AS docId, target, line FROM links WHERE document_id = ? ORDER BY line').all(docId) as WrittenLink[];
}

/** Links whose normalised target is one of `keys` (the names and paths a note may be linked by), from indexed notes. */
export function linksNaming(db: Db, keys: string[]): WrittenLink[] {
  if (!keys.length) return [];
  return db
    .prepare(
      `SELECT l.document_id AS docId, l.target, l.line FROM links l JOIN documents d ON d.id = l.document_id
       WHERE d.status = 'indexed' AND l.target_norm IN (SELECT value FROM json_each(?)) ORDER BY l.document_id, l.line`,
    )
    .all(JSON.stringify(keys)) as WrittenLink[];
}

export interface TagSource {
  docId: number;
  frontMatter: string;
  /** The note's prose passages (code left out), joined. */
  prose: string | null;
}

/** Front matter and prose of indexed notes (all of them, or one), for their tags. */
export function tagSources(db: Db, docId?: number): TagSource[] {
  return db
    .prepare(
      `SELECT d.id AS docId, d.front_matter AS frontMatter,
              (SELECT group_concat(c.text, char(10)) FROM chunks c WHERE c.document_id = d.id AND c.is_code = 0) AS prose
       FROM documents d WHERE d.status = 'indexed' ${docId === undefined ? '' : 'AND d.id = ?'}`,
    )
    .all(...(docId === undefined ? [] : [docId])) as TagSource[];
}
