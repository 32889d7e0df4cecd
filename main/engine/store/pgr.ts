// Reads of PG-RAG's pseudo-graph (retrieve/pgr): topics, super nodes and the mind-map paths of topics.
import type { Db } from './db.js';

export function topicRows(db: Db): { id: number; document_id: number; text: string }[] {
  return db.prepare("SELECT id, document_id, text FROM mm_nodes WHERE kind = 'topic' ORDER BY id").all() as { id: number; document_id: number; text: string }[];
}

export function superNodeSizes(db: Db): Map<number, number> {
  const rows = db.prepare('SELECT super_id AS id, count(*) AS n FROM super_members GROUP BY super_id').all() as { id: number; n: number }[];
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Super-topic nodes the seed topics belong to, and super-fact nodes of the seed topics' facts. */
export function superNodesOfTopics(db: Db, seedIds: number[]): { superId: number; kind: 'topic' | 'fact' }[] {
  return db
    .prepare(
      `SELECT s.id AS superId, s.kind FROM super_members m JOIN super_nodes s ON s.id = m.super_id AND s.kind = 'topic'
       WHERE m.node_id IN (SELECT value FROM json_each(?))
       UNION
       SELECT s.id AS superId, s.kind FROM mm_nodes seed
       JOIN mm_nodes f ON f.document_id = seed.document_id AND f.extractor = seed.extractor AND +f.kind = 'fact'
       JOIN super_members m ON m.node_id = f.id
       JOIN super_nodes s ON s.id = m.super_id AND s.kind = 'fact'
       WHERE seed.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(seedIds), JSON.stringify(seedIds)) as { superId: number; kind: 'topic' | 'fact' }[];
}

/** The topics of the notes whose nodes are members of the given super nodes. */
export function topicsUnderSuperNodes(db: Db, superIds: number[]): { superId: number; topicId: number }[] {
  return db
    .prepare(
      `SELECT DISTINCT m.super_id AS superId, t.id AS topicId FROM super_members m
       JOIN mm_nodes n ON n.id = m.node_id
       JOIN mm_nodes t ON t.document_id = n.document_id AND t.extractor = n.extractor AND +t.kind = 'topic'
       WHERE m.super_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(superIds)) as { superId: number; topicId: number }[];
}

export interface MindMapNodeRow {
  id: number;
  document_id: number;
  parent_id: number | null;
  kind: string;
  text: string;
  path_text: string;
  line_from: number | null;
  line_to: number | null;
  /** The chunk (passage) the node's fact was extracted from; null for topics and routes. */
  chunk_id: number | null;
}

/** Every node of the mind maps the given topics head, children in order. */
export function mindMapsOfTopics(db: Db, topicIds: number[]): MindMapNodeRow[] {
  return db
    .prepare(
      `SELECT n.id, n.document_id, n.parent_id, n.kind, n.text, n.path_text, n.line_from, n.line_to, f.chunk_id FROM mm_nodes n
       JOIN mm_nodes t ON t.document_id = n.document_id AND t.extractor = n.extractor
       LEFT JOIN fcis f ON f.id = n.fci_id
       WHERE t.id IN (SELECT value FROM json_each(?)) ORDER BY n.parent_id, n.ord, n.id`,
    )
    .all(JSON.stringify(topicIds)) as MindMapNodeRow[];
}

export function documentsByIds(db: Db, ids: number[]): Map<number, { id: number; rel_path: string; title: string }> {
  const rows = db.prepare('SELECT id, rel_path, title FROM documents WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as {
    id: number;
    rel_path: string;
    title: string;
  }[];
  return new Map(rows.map((d) => [d.id, d]));
}
