// Reads the retrievers make at query time (BM25 over chunks, chunk rows for contexts, titles, facts of
// the retrieved notes). Kept here so retrieve/** holds no SQL.
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** BM25 over chunks for an FTS5 MATCH expression; higher score is better. */
export function bm25ChunkScores(db: Db, match: string, k: number): { id: number; score: number }[] {
  const rows = db
    .prepare('SELECT rowid AS id, bm25(chunks_fts) AS rank FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?')
    .all(match, k) as { id: number; rank: number }[];
  return rows.map((r) => ({ id: r.id, score: -r.rank }));
}

export interface ChunkRow {
  id: number;
  text: string;
  heading_path: string;
  line_from: number;
  line_to: number;
  document_id: number;
  /** 1 for a code block (the chunker's mark). */
  is_code: number;
  rel_path: string;
  title: string;
}

export function chunkRows(db: Db, ids: number[]): ChunkRow[] {
  return db
    .prepare(
      `SELECT c.id, c.text, c.heading_path, c.line_from, c.line_to, c.document_id, c.is_code, d.rel_path, d.title
       FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids)) as ChunkRow[];
}

/** The note of every indexed chunk (held in memory per index generation: a lookup per question costs more). */
export function allChunkDocuments(db: Db): Map<number, number> {
  const rows = db.prepare('SELECT id, document_id AS docId FROM chunks').all() as { id: number; docId: number }[];
  return new Map(rows.map((r) => [r.id, r.docId]));
}

/** Prose chunks (no code) of the given notes, in id order. */
export function proseChunksOf(db: Db, docIds: number[]): { id: number; docId: number }[] {
  return db
    .prepare('SELECT id, document_id AS docId FROM chunks WHERE is_code = 0 AND document_id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify(docIds)) as { id: number; docId: number }[];
}

export function indexedTitles(db: Db): { id: number; title: string }[] {
  return db.prepare("SELECT id, title FROM documents WHERE status = 'indexed'").all() as { id: number; title: string }[];
}

export interface FactRow {
  id: number;
  document_id: number;
  chunk_id: number;
  text: string;
  line_from: number;
  line_to: number;
  path_text: string | null;
}

/** The facts (FCIs) of the given notes, with their mind-map path where they have one. */
export function factsOf(db: Db, docIds: number[]): FactRow[] {
  if (docIds.length === 0) return [];
  return db
    .prepare(
      `SELECT f.id, f.document_id, f.chunk_id, f.text, f.line_from, f.line_to, m.path_text
       FROM fcis f LEFT JOIN mm_nodes m ON m.fci_id = f.id
       WHERE f.document_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(docIds)) as FactRow[];
}

/** A passage of a note as the chunker kept it (a code block with its fences). */
export interface NotePassageRow {
  id: number;
  document_id: number;
  line_from: number;
  line_to: number;
  /** 1 for a code block. */
  is_code: number;
  text: string;
}

/** Every passage of the given notes (code blocks included), for reading their lines as written. */
export function passagesOfNotes(db: Db, docIds: number[]): NotePassageRow[] {
  if (docIds.length === 0) return [];
  return stmt(db, 'SELECT id, document_id, line_from, line_to, is_code, text FROM chunks WHERE document_id IN (SELECT value FROM json_each(?))').all(
    JSON.stringify(docIds),
  ) as NotePassageRow[];
}

/** The opening prose passage of the note indexed last (null: no note), for a question asked to warm retrieval up. */
export function latestPassageText(db: Db): string | null {
  return (
    (stmt(
      db,
      `SELECT c.text FROM chunks c JOIN documents d ON d.id = c.document_id
        WHERE d.status = 'indexed' AND c.is_code = 0 ORDER BY d.indexed_at DESC, d.id DESC, c.ord LIMIT 1`,
    )
      .pluck()
      .get() as string | undefined) ?? null
  );
}

export function hasIndexedDocuments(db: Db): boolean {
  return db.prepare("SELECT 1 FROM documents WHERE status = 'indexed' LIMIT 1").get() !== undefined;
}

/** The chunk texts of the given notes ('all': every chunk), one row at a time (statistics kept per note). */
export function chunkTextsByNote(db: Db, docIds: number[] | 'all'): IterableIterator<{ docId: number; text: string }> {
  return (
    docIds === 'all'
      ? db.prepare('SELECT document_id AS docId, text FROM chunks').iterate()
      : db.prepare('SELECT document_id AS docId, text FROM chunks WHERE document_id IN (SELECT value FROM json_each(?))').iterate(JSON.stringify(docIds))
  ) as IterableIterator<{ docId: number; text: string }>;
}

/** The text of the given chunks. */
export function chunkTexts(db: Db, ids: number[]): { id: number; text: string }[] {
  if (ids.length === 0) return [];
  return db.prepare('SELECT id, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; text: string }[];
}

/**
 * How many chunks hold each term in their indexed text (title, heading path, text), stemmed as BM25 stems
 * it: an FTS5 phrase query per term; 0 for a term nothing holds.
 */
export function chunkDocumentFrequencies(db: Db, terms: string[]): number[] {
  const count = stmt(db, 'SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?');
  return terms.map((t) => (t.trim() ? (count.get(`"${t.replaceAll('"', '""')}"`) as { n: number }).n : 0));
}
