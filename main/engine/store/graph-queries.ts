// Reads of the cross-note graph (document layer, shared entities, super-topics) for the graph views
// and related notes. SQL lives here; graph/graph-view.ts and graph/related.ts shape the results.
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** Ids of every indexed document, oldest first. */
export function indexedDocumentIds(db: Db): number[] {
  return stmt(db, "SELECT id FROM documents WHERE status = 'indexed' ORDER BY id").pluck().all() as number[];
}
