// Reads of KG-Retriever's hierarchical index graph (retrieve/hig): document edges, entity mentions and
// triples of candidate notes.
import type { Db } from './db.js';

export interface DocEdge {
  src: number;
  dst: number;
  weight: number;
}

/** Document graph edges touching `ids`, both directions (an edge means "among each other's K most similar"). */
export function docEdgesOf(db: Db, ids: number[]): DocEdge[] {
  if (ids.length === 0) return [];
  const json = JSON.stringify(ids);
  return db
    .prepare(
      `SELECT src, dst, weight FROM doc_edges WHERE src IN (SELECT value FROM json_each(?))
       UNION SELECT dst AS src, src AS dst, weight FROM doc_edges WHERE dst IN (SELECT value FROM json_each(?))`,
    )
    .all(json, json) as DocEdge[];
}

export function titlesOf(db: Db, ids: number[]): Map<number, string> {
  const rows = db.prepare('SELECT id, title FROM documents WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as { id: number; title: string }[];
  return new Map(rows.map((r) => [r.id, r.title]));
}

export function entityMentionsOf(db: Db, docIds: number[]): { entityId: number; docId: number; name: string }[] {
  return db
    .prepare(
      `SELECT DISTINCT m.entity_id AS entityId, m.document_id AS docId, e.name FROM entity_mentions m JOIN entities e ON e.id = m.entity_id
       WHERE m.document_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(docIds)) as { entityId: number; docId: number; name: string }[];
}

export interface TripleRow {
  id: number;
  docId: number;
  s: number;
  o: number;
  relation: string;
  lineFrom: number;
  lineTo: number;
  subject: string;
  object: string;
  relPath: string;
  title: string;
}

/** Triples of the given notes that have one of the given entities as subject or object. */
export function triplesOf(db: Db, docIds: number[], entityIds: number[]): TripleRow[] {
  if (entityIds.length === 0) return [];
  const ents = JSON.stringify(entityIds);
  return db
    .prepare(
      `SELECT t.id, t.document_id AS docId, t.subject_id AS s, t.object_id AS o, t.relation, t.line_from AS lineFrom, t.line_to AS lineTo,
              se.name AS subject, oe.name AS object, d.rel_path AS relPath, d.title
       FROM triples t JOIN entities se ON se.id = t.subject_id JOIN entities oe ON oe.id = t.object_id JOIN documents d ON d.id = t.document_id
       WHERE t.document_id IN (SELECT value FROM json_each(?))
         AND (t.subject_id IN (SELECT value FROM json_each(?)) OR t.object_id IN (SELECT value FROM json_each(?)))`,
    )
    .all(JSON.stringify(docIds), ents, ents) as TripleRow[];
}
