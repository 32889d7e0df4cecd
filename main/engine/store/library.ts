// Library folders (roots with their scope) and what the Library view lists per note.
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { FAST_EXTRACTOR } from '../types.js';
import { deleteDocument } from './documents.js';
import { forgetReleasedReplies } from './kept-replies.js';
import { forgetReleasedVectors } from './released-vectors.js';

export interface FolderRow {
  root: string;
  include: string[];
  exclude: string[];
}

interface RawFolder {
  root: string;
  include: string;
  exclude: string;
}

const parseList = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};
const toFolder = (r: RawFolder): FolderRow => ({ root: r.root, include: parseList(r.include), exclude: parseList(r.exclude) });

/** In the order they were added. */
export function listFolders(db: Db): FolderRow[] {
  return (stmt(db, 'SELECT root, include, exclude FROM library_folders ORDER BY rowid').all() as RawFolder[]).map(toFolder);
}

export function getFolder(db: Db, root: string): FolderRow | undefined {
  const r = stmt(db, 'SELECT root, include, exclude FROM library_folders WHERE root = ?').get(root) as RawFolder | undefined;
  return r ? toFolder(r) : undefined;
}

/** Adds a folder (keeping its scope when it is already there). */
export function saveFolder(db: Db, root: string, scope?: { include: string[]; exclude: string[] }): void {
  stmt(db, 'INSERT OR IGNORE INTO library_folders (root) VALUES (?)').run(root);
  if (scope) setFolderScope(db, root, scope);
}

export function setFolderScope(db: Db, root: string, scope: { include: string[]; exclude: string[] }): void {
  stmt(db, 'UPDATE library_folders SET include = ?, exclude = ? WHERE root = ?').run(JSON.stringify(scope.include), JSON.stringify(scope.exclude), root);
}

export function deleteFolder(db: Db, root: string): void {
  stmt(db, 'DELETE FROM library_folders WHERE root = ?').run(root);
}

/** Indexed notes per root. */
export function noteCounts(db: Db): Map<string, number> {
  const rows = stmt(db, "SELECT root, count(*) AS n FROM documents WHERE status = 'indexed' GROUP BY root").all() as { root: string; n: number }[];
  return new Map(rows.map((r) => [r.root, r.n]));
}

/** Every root that has documents, saved or not (a run that failed may have left some). */
export function documentRoots(db: Db): string[] {
  return stmt(db, 'SELECT DISTINCT root FROM documents').pluck().all() as string[];
}

export interface DocumentStateRow {
  id: number;
  root: string;
  relPath: string;
  title: string;
  lang: string;
  status: 'indexed' | 'skipped' | 'error';
  error: string | null;
  chunks: number;
  fcis: number;
  /** A model extractor that wrote this note's rows, if any. */
  modelExtractor: string | null;
  /** The latest model-pass attempt for the note. */
  lastJobStatus: string | null;
  lastJobError: string | null;
}

export function documentStates(db: Db, docId?: number): DocumentStateRow[] {
  const sql = `SELECT d.id, d.root, d.rel_path AS relPath, d.title, d.lang, d.status, d.error,
            (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks,
            (SELECT count(*) FROM fcis f WHERE f.document_id = d.id) AS fcis,
            (SELECT m.extractor FROM mm_nodes m WHERE m.document_id = d.id AND m.extractor <> @fast LIMIT 1) AS modelExtractor,
            (SELECT j.status FROM jobs j WHERE j.document_id = d.id AND j.kind = 'llm-extract' ORDER BY j.id DESC LIMIT 1) AS lastJobStatus,
            (SELECT j.error FROM jobs j WHERE j.document_id = d.id AND j.kind = 'llm-extract' ORDER BY j.id DESC LIMIT 1) AS lastJobError
       FROM documents d`;
  return docId === undefined
    ? (stmt(db, `${sql} ORDER BY d.rel_path, d.root`).all({ fast: FAST_EXTRACTOR }) as DocumentStateRow[])
    : (stmt(db, `${sql} WHERE d.id = @id`).all({ fast: FAST_EXTRACTOR, id: docId }) as DocumentStateRow[]);
}

/** Ids of a folder's indexed notes (the model pass of a folder job covers these). */
export function indexedIdsUnder(db: Db, root: string): number[] {
  return stmt(db, "SELECT id FROM documents WHERE root = ? AND status = 'indexed' ORDER BY id").pluck().all(root) as number[];
}

/**
 * Removes every document of a folder (rows cascade; FTS and vectors go by trigger) and queues the graph
 * update. What the model read in the folder goes too, replies its notes released earlier included.
 */
export function removeDocumentsUnder(db: Db, root: string): number {
  forgetReleasedReplies(db, { root });
  forgetReleasedVectors(db, { root });
  const ids = stmt(db, 'SELECT id FROM documents WHERE root = ?').pluck().all(root) as number[];
  if (ids.length === 0) return 0;
  db.transaction(() => {
    // deleteDocument queues each note's graph update itself.
    for (const id of ids) deleteDocument(db, id, 'forget');
  })();
  return ids.length;
}

/**
 * Makes the next run extract again every indexed note whose rows the fast pipeline wrote; a note a model
 * extracted keeps its rows (the model pass is the user's to run again). Returns how many notes that is.
 */
export function forgetFastExtractions(db: Db): number {
  return stmt(
    db,
    `UPDATE documents SET content_hash = NULL, mtime = NULL
      WHERE status = 'indexed'
        AND NOT EXISTS (SELECT 1 FROM mm_nodes m WHERE m.document_id = documents.id AND m.extractor <> @fast)
        AND NOT EXISTS (SELECT 1 FROM fcis f WHERE f.document_id = documents.id AND f.extractor <> @fast)`,
  ).run({ fast: FAST_EXTRACTOR }).changes;
}

/** Makes the next run re-extract a folder's notes (or one note) although they did not change on disk. */
export function forgetContentHashes(db: Db, root: string, docId?: number): void {
  if (docId === undefined) stmt(db, 'UPDATE documents SET content_hash = NULL, mtime = NULL WHERE root = ?').run(root);
  else stmt(db, 'UPDATE documents SET content_hash = NULL, mtime = NULL WHERE root = ? AND id = ?').run(root, docId);
}

export function findIndexedDocument(db: Db, docPath: string, docId?: number): { id: number; root: string; rel_path: string; title: string } | undefined {
  const sql = "SELECT id, root, rel_path, title FROM documents WHERE status = 'indexed' AND ";
  return (docId !== undefined
    ? stmt(db, `${sql} id = ?`).get(docId)
    : stmt(db, `${sql} rel_path = ? ORDER BY id LIMIT 1`).get(docPath)) as { id: number; root: string; rel_path: string; title: string } | undefined;
}

/** Documents per extractor that wrote FCIs (stats). */
export function extractorCounts(db: Db): { extractor: string; documents: number }[] {
  return stmt(db, 'SELECT extractor, count(DISTINCT document_id) AS documents FROM fcis GROUP BY extractor ORDER BY extractor').all() as {
    extractor: string;
    documents: number;
  }[];
}
