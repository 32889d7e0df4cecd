// What the entity–chunk–note graph (graph/walk/entity-graph.ts) is built from: chunks, entity mentions,
// triples, wikilinks and titles of the indexed notes, read in bulk once per index generation.
import type { Db } from './db.js';

export interface GraphChunkRow {
  id: number;
  docId: number;
  lineFrom: number;
  lineTo: number;
}

export interface GraphMentionRow {
  entityId: number;
  docId: number;
  chunkId: number | null;
  lineFrom: number;
}

export function graphChunks(db: Db): GraphChunkRow[] {
  return db
    .prepare(
      `SELECT c.id, c.document_id AS docId, c.line_from AS lineFrom, c.line_to AS lineTo FROM chunks c
       JOIN documents d ON d.id = c.document_id WHERE d.status = 'indexed' ORDER BY c.document_id, c.ord`,
    )
    .all() as GraphChunkRow[];
}

export function graphEntities(db: Db): { id: number; norm: string }[] {
  return db.prepare('SELECT id, norm FROM entities').all() as { id: number; norm: string }[];
}

/** Every mention, repeats included: the graph keeps one per entity and chunk (DISTINCT sorted 90k rows at 10k news for nothing). */
export function graphMentions(db: Db): GraphMentionRow[] {
  return db
    .prepare('SELECT entity_id AS entityId, document_id AS docId, chunk_id AS chunkId, line_from AS lineFrom FROM entity_mentions')
    .all() as GraphMentionRow[];
}

export function graphTriples(db: Db): { s: number; o: number }[] {
  return db.prepare('SELECT DISTINCT subject_id AS s, object_id AS o FROM triples WHERE subject_id <> object_id').all() as { s: number; o: number }[];
}

export interface GraphNoteRow {
  id: number;
  title: string;
  root: string;
  relPath: string;
  /** The front matter's `aliases` and `alias` values as JSON (null where absent). */
  aliases: string | null;
  alias: string | null;
}

/** The indexed notes with what links may name them by: title, path, and the front matter's aliases. */
export function graphNotes(db: Db): GraphNoteRow[] {
  return db
    .prepare(
      `SELECT id, title, root, rel_path AS relPath, front_matter -> '$.aliases' AS aliases, front_matter -> '$.alias' AS alias
       FROM documents WHERE status = 'indexed'`,
    )
    .all() as GraphNoteRow[];
}

/**
 * Every link as written (its target resolved by graph/walk/link-resolution.ts, which needs the path in it) and
 * its normalised key (store/names.ts normalizeLinkTarget, stored when the note was written).
 */
export function graphLinks(db: Db): { docId: number; target: string; key: string; line: number }[] {
  return db.prepare('SELECT document_id AS docId, target, target_norm AS key, line FROM links').all() as {
    docId: number;
    target: string;
    key: string;
    line: number;
  }[];
}

/** A chunk's segmented words (its FTS text), for the title-mention scan. */
export interface GraphChunkWordsRow {
  chunkId: number;
  docId: number;
  seg: string;
  isCode: number;
}

/** Every indexed chunk's segmented words, note by note; streamed, not held. */
export function graphChunkWords(db: Db): IterableIterator<GraphChunkWordsRow> {
  return db
    .prepare(
      `SELECT c.id AS chunkId, c.document_id AS docId, f.seg AS seg, c.is_code AS isCode FROM chunks c
       JOIN documents d ON d.id = c.document_id JOIN chunks_fts f ON f.rowid = c.id
       WHERE d.status = 'indexed' ORDER BY c.document_id, c.ord`,
    )
    .iterate() as IterableIterator<GraphChunkWordsRow>;
}

/** The segmented words of the given notes' chunks, note by note (the notes an edit changed). */
export function graphChunkWordsOf(db: Db, docIds: number[]): GraphChunkWordsRow[] {
  return db
    .prepare(
      `SELECT c.id AS chunkId, c.document_id AS docId, f.seg AS seg, c.is_code AS isCode FROM chunks c
       JOIN chunks_fts f ON f.rowid = c.id
       WHERE c.document_id IN (SELECT value FROM json_each(?)) ORDER BY c.document_id, c.ord`,
    )
    .all(JSON.stringify(docIds)) as GraphChunkWordsRow[];
}
