// Reads of the cross-note graph (document layer, shared entities, super-topics) for the graph views
// and related notes. SQL lives here; graph/graph-view.ts and graph/related.ts shape the results.
// Sets of ids travel as one JSON array bound to json_each, so a statement is prepared once.
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { toFloat32 } from './embeddings.js';

const ids = (xs: Iterable<number>) => JSON.stringify([...xs]);

/** Ids of every indexed document, oldest first. */
export function indexedDocumentIds(db: Db): number[] {
  return stmt(db, "SELECT id FROM documents WHERE status = 'indexed' ORDER BY id").pluck().all() as number[];
}

export function isIndexedDocument(db: Db, docId: number): boolean {
  return stmt(db, "SELECT 1 FROM documents WHERE id = ? AND status = 'indexed'").get(docId) !== undefined;
}

export function indexedDocumentCount(db: Db): number {
  return stmt(db, "SELECT count(*) FROM documents WHERE status = 'indexed'").pluck().get() as number;
}

export interface GraphDoc {
  id: number;
  title: string;
  relPath: string;
  root: string;
  degree: number;
}

const DOC_COLUMNS = `d.id, d.title, d.rel_path AS relPath, d.root,
  (SELECT count(*) FROM doc_edges e WHERE e.src = d.id OR e.dst = d.id) AS degree`;

/** The `limit` indexed documents with the most document-layer edges. */
export function mostConnectedDocuments(db: Db, limit: number): GraphDoc[] {
  return stmt(db, `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.status = 'indexed' ORDER BY degree DESC, d.id LIMIT ?`).all(limit) as GraphDoc[];
}

/** Every indexed document, for the whole-library overview. */
export function allGraphDocuments(db: Db): GraphDoc[] {
  return stmt(db, `SELECT ${DOC_COLUMNS} FROM documents d WHERE d.status = 'indexed' ORDER BY d.id`).all() as GraphDoc[];
}

export function graphDocuments(db: Db, docIds: Iterable<number>): GraphDoc[] {
  return stmt(db, `SELECT ${DOC_COLUMNS} FROM json_each(?) j CROSS JOIN documents d ON d.id = j.value WHERE d.status = 'indexed'`).all(ids(docIds)) as GraphDoc[];
}

export interface DocEdge {
  src: number;
  dst: number;
  weight: number;
}

/** Document-layer edges with both ends in the set. */
export function edgesWithin(db: Db, docIds: Iterable<number>): DocEdge[] {
  const json = ids(docIds);
  return stmt(
    db,
    `SELECT e.src, e.dst, e.weight FROM json_each(?) j CROSS JOIN doc_edges e ON e.src = j.value
     WHERE e.dst IN (SELECT value FROM json_each(?))`,
  ).all(json, json) as DocEdge[];
}

/** Every document-layer edge between indexed documents, as (src, dst, weight) rows. */
export function allDocEdges(db: Db): [number, number, number][] {
  return stmt(
    db,
    `SELECT e.src, e.dst, e.weight FROM doc_edges e
     JOIN documents a ON a.id = e.src AND a.status = 'indexed' JOIN documents b ON b.id = e.dst AND b.status = 'indexed'`,
  )
    .raw()
    .all() as [number, number, number][];
}

/** A document's neighbours on the document layer, either direction, strongest edge per neighbour. */
export function docNeighbours(db: Db, docId: number): { docId: number; weight: number }[] {
  return stmt(
    db,
    `SELECT other AS docId, max(weight) AS weight FROM (
       SELECT dst AS other, weight FROM doc_edges WHERE src = ?
       UNION ALL SELECT src AS other, weight FROM doc_edges WHERE dst = ?)
     GROUP BY other ORDER BY weight DESC`,
  ).all(docId, docId) as { docId: number; weight: number }[];
}

/** Entities mentioned by at least two documents of the set, most shared first. */
export function entitiesSharedWithin(db: Db, docIds: Iterable<number>, limit: number): { id: number; name: string; docs: number }[] {
  return stmt(
    db,
    `SELECT e.id, e.name, count(DISTINCT m.document_id) AS docs
     FROM json_each(?) j CROSS JOIN entity_mentions m ON m.document_id = j.value JOIN entities e ON e.id = m.entity_id
     GROUP BY e.id HAVING docs >= 2 ORDER BY docs DESC, e.id LIMIT ?`,
  ).all(ids(docIds), limit) as { id: number; name: string; docs: number }[];
}

/** (entity, document) pairs for the given entities, restricted to the given documents. */
export function mentionsWithin(db: Db, entityIds: Iterable<number>, docIds: Iterable<number>): { entityId: number; docId: number }[] {
  return stmt(
    db,
    `SELECT DISTINCT m.entity_id AS entityId, m.document_id AS docId
     FROM json_each(?) j CROSS JOIN entity_mentions m ON m.entity_id = j.value
     WHERE m.document_id IN (SELECT value FROM json_each(?))`,
  ).all(ids(entityIds), ids(docIds)) as { entityId: number; docId: number }[];
}

/** Super-topics joining at least two documents of the set, largest first. (`+n.kind`: the kind index would scan every topic node per document.) */
export function superTopicsWithin(db: Db, docIds: Iterable<number>, limit: number): { id: number; text: string; docs: number }[] {
  return stmt(
    db,
    `SELECT s.id, s.text, count(DISTINCT n.document_id) AS docs
     FROM json_each(?) j CROSS JOIN mm_nodes n ON n.document_id = j.value AND +n.kind = 'topic'
     JOIN super_members m ON m.node_id = n.id JOIN super_nodes s ON s.id = m.super_id AND s.kind = 'topic'
     GROUP BY s.id HAVING docs >= 2 ORDER BY docs DESC, s.id LIMIT ?`,
  ).all(ids(docIds), limit) as { id: number; text: string; docs: number }[];
}

/** (super-topic, document) membership pairs for the given super-topics, restricted to the given documents. */
export function superTopicMembersWithin(db: Db, superIds: Iterable<number>, docIds: Iterable<number>): { superId: number; docId: number }[] {
  return stmt(
    db,
    `SELECT DISTINCT m.super_id AS superId, n.document_id AS docId
     FROM json_each(?) j CROSS JOIN super_members m ON m.super_id = j.value JOIN mm_nodes n ON n.id = m.node_id
     WHERE n.document_id IN (SELECT value FROM json_each(?))`,
  ).all(ids(superIds), ids(docIds)) as { superId: number; docId: number }[];
}

/** Each document's super-topics with their size (members in the whole index), for clustering. (`+n.kind`: as above.) */
export function documentSuperTopics(db: Db, docIds: Iterable<number>): { docId: number; superId: number; text: string; size: number }[] {
  return stmt(
    db,
    `SELECT n.document_id AS docId, s.id AS superId, s.text, (SELECT count(*) FROM super_members c WHERE c.super_id = s.id) AS size
     FROM json_each(?) j CROSS JOIN mm_nodes n ON n.document_id = j.value AND +n.kind = 'topic'
     JOIN super_members m ON m.node_id = n.id JOIN super_nodes s ON s.id = m.super_id AND s.kind = 'topic'`,
  ).all(ids(docIds)) as { docId: number; superId: number; text: string; size: number }[];
}

export interface SharedEntityRow {
  docId: number;
  entityId: number;
  name: string;
  /** Documents mentioning the entity, in the whole index. */
  df: number;
  /** The entity's first mention in the other document. */
  lineFrom: number;
  lineTo: number;
}

/** Entities of `docId` that other documents mention too, with each entity's document frequency. */
export function sharedEntities(db: Db, docId: number): SharedEntityRow[] {
  return stmt(
    db,
    `WITH mine AS (SELECT DISTINCT entity_id FROM entity_mentions WHERE document_id = ?)
     SELECT m.document_id AS docId, e.id AS entityId, e.name, min(m.line_from) AS lineFrom, m.line_to AS lineTo,
            (SELECT count(DISTINCT x.document_id) FROM entity_mentions x WHERE x.entity_id = e.id) AS df
     FROM mine CROSS JOIN entity_mentions m ON m.entity_id = mine.entity_id JOIN entities e ON e.id = mine.entity_id
     WHERE m.document_id <> ?
     GROUP BY m.document_id, e.id`,
  ).all(docId, docId) as SharedEntityRow[];
}

/** Document frequency of each entity `docId` mentions (its entity weight is the sum of their IDFs). */
export function entityDocumentFrequencies(db: Db, docId: number): { entityId: number; df: number }[] {
  return stmt(
    db,
    `SELECT mine.entity_id AS entityId, (SELECT count(DISTINCT x.document_id) FROM entity_mentions x WHERE x.entity_id = mine.entity_id) AS df
     FROM (SELECT DISTINCT entity_id FROM entity_mentions WHERE document_id = ?) mine`,
  ).all(docId) as { entityId: number; df: number }[];
}

export interface SharedTopicRow {
  docId: number;
  superId: number;
  /** The super-topic's name. */
  text: string;
  /** The other note's topic node: its similarity to the group, and its lines. */
  sim: number;
  lineFrom: number | null;
  lineTo: number | null;
}

/** Other documents whose topic joined a super-topic with one of `docId`'s topics. */
export function sharedSuperTopics(db: Db, docId: number): SharedTopicRow[] {
  return stmt(
    db,
    `SELECT n.document_id AS docId, s.id AS superId, s.text, other.sim, n.line_from AS lineFrom, n.line_to AS lineTo
     FROM mm_nodes mine
     JOIN super_members mm ON mm.node_id = mine.id
     JOIN super_nodes s ON s.id = mm.super_id AND s.kind = 'topic'
     JOIN super_members other ON other.super_id = s.id AND other.node_id <> mine.id
     JOIN mm_nodes n ON n.id = other.node_id
     WHERE mine.document_id = ? AND mine.kind = 'topic' AND n.document_id <> ?`,
  ).all(docId, docId) as SharedTopicRow[];
}

export interface DocumentHeader {
  id: number;
  relPath: string;
  title: string;
}

export function documentHeaders(db: Db, docIds: Iterable<number>): DocumentHeader[] {
  return stmt(db, 'SELECT d.id, d.rel_path AS relPath, d.title FROM json_each(?) j CROSS JOIN documents d ON d.id = j.value').all(ids(docIds)) as DocumentHeader[];
}

export interface ChunkVectorRow {
  id: number;
  text: string;
  lineFrom: number;
  lineTo: number;
  vector: Float32Array;
}

/** A document's prose chunks with their vectors from `model` (code blocks are not passages). */
export function chunkVectors(db: Db, docId: number, model: string): ChunkVectorRow[] {
  return stmt(
    db,
    `SELECT c.id, c.text, c.line_from AS lineFrom, c.line_to AS lineTo, e.vector
     FROM chunks c JOIN embeddings e ON e.owner_kind = 'chunk' AND e.model = ? AND e.owner_id = c.id
     WHERE c.document_id = ? AND c.is_code = 0 ORDER BY c.ord`,
  )
    .all(model, docId)
    .map((r) => {
      const row = r as Omit<ChunkVectorRow, 'vector'> & { vector: Buffer };
      return { ...row, vector: toFloat32(row.vector) };
    });
}
