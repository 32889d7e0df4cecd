import type { Db } from './db.js';
import { stmt } from './statements.js';

export type SuperKind = 'topic' | 'fact';

/** Topic and fact nodes of every mind map: id, document and text. */
export function loadFusionNodes(db: Db): { id: number; document_id: number; kind: SuperKind; text: string }[] {
  return stmt(db, "SELECT id, document_id, kind, text FROM mm_nodes WHERE kind IN ('topic','fact')").all() as {
    id: number;
    document_id: number;
    kind: SuperKind;
    text: string;
  }[];
}

/**
 * Topic and fact nodes with their vectors from `model`, in id order: every one, or only those of the
 * given documents. Nodes without a vector yet are left out.
 */
export function loadFusionVectors(db: Db, model: string, docIds: number[] | null): [number, number, SuperKind, Buffer][] {
  const base = `SELECT n.id, n.document_id, n.kind, e.vector FROM mm_nodes n
       JOIN embeddings e ON e.owner_kind = 'mm' AND e.model = ? AND e.owner_id = n.id`;
  if (docIds === null) {
    return stmt(db, `${base} WHERE n.kind IN ('topic','fact') ORDER BY n.id`).raw().all(model) as [number, number, SuperKind, Buffer][];
  }
  // "+n.kind": a few documents' nodes come by the document index, not by walking every topic and fact;
  // CROSS JOIN keeps that order: left to itself the planner walked every 'mm' vector instead (146 ms
  // for one note's 21 nodes at 10k news, 0.4 ms this way).
  return stmt(db, `${base.replace('JOIN embeddings', 'CROSS JOIN embeddings')} WHERE n.document_id IN (SELECT value FROM json_each(?)) AND +n.kind IN ('topic','fact') ORDER BY n.id`)
    .raw()
    .all(model, JSON.stringify(docIds)) as [number, number, SuperKind, Buffer][];
}

/** A mind-map node's own text (a super node is labelled by its shortest member's). */
export function mindMapNodeText(db: Db, nodeId: number): string {
  return (stmt(db, 'SELECT text FROM mm_nodes WHERE id = ?').pluck().get(nodeId) as string | undefined) ?? '';
}

/**
 * Super nodes' members with their document and vector from `model`, by super node and node id: of
 * every super node, or of the given ones.
 */
export function superMemberVectors(db: Db, model: string, superIds: number[] | null = null): [number, SuperKind, number, number, Buffer][] {
  const only = superIds ? 'WHERE s.id IN (SELECT value FROM json_each(?))' : '';
  // For a few super nodes, CROSS JOIN reads their members' vectors after them: left to itself the
  // planner walked every 'mm' vector of the model (234 ms for three super nodes at 10k news, 0.1 ms so).
  return stmt(
    db,
    `SELECT s.id, s.kind, n.id, n.document_id, e.vector FROM super_nodes s
       JOIN super_members m ON m.super_id = s.id
       JOIN mm_nodes n ON n.id = m.node_id
       ${superIds ? 'CROSS ' : ''}JOIN embeddings e ON e.owner_kind = 'mm' AND e.model = ? AND e.owner_id = n.id
      ${only}
      ORDER BY s.id, n.id`,
  )
    .raw()
    .all(...(superIds ? [model, JSON.stringify(superIds)] : [model])) as [number, SuperKind, number, number, Buffer][];
}

/** Every membership as [node id, super node id]. */
export function superMemberships(db: Db): [number, number][] {
  return stmt(db, 'SELECT node_id, super_id FROM super_members').raw().all() as [number, number][];
}

export function removeSuperMember(db: Db, superId: number, nodeId: number): void {
  stmt(db, 'DELETE FROM super_members WHERE super_id = ? AND node_id = ?').run(superId, nodeId);
}

export function deleteAllSuperNodes(db: Db): void {
  stmt(db, 'DELETE FROM super_nodes').run();
}

/** Super nodes left with fewer than two members (their other members' rows were deleted). */
export function deleteLoneSuperNodes(db: Db): void {
  stmt(db, 'DELETE FROM super_nodes WHERE (SELECT count(*) FROM super_members m WHERE m.super_id = super_nodes.id) < 2').run();
}

export function superNodeOf(db: Db, nodeId: number): number | undefined {
  return stmt(db, 'SELECT super_id FROM super_members WHERE node_id = ?').pluck().get(nodeId) as number | undefined;
}

export function addSuperMember(db: Db, superId: number, nodeId: number, sim: number): void {
  stmt(db, 'INSERT OR REPLACE INTO super_members (super_id, node_id, sim) VALUES (?, ?, ?)').run(superId, nodeId, sim);
}

/** Moves every member of `from` into `into` and drops `from`. */
export function mergeSuperNodes(db: Db, into: number, from: number): void {
  stmt(db, 'UPDATE OR REPLACE super_members SET super_id = ? WHERE super_id = ?').run(into, from);
  stmt(db, 'DELETE FROM super_nodes WHERE id = ?').run(from);
}

export function insertSuperNode(db: Db, kind: SuperKind, label: string, members: Map<number, number>): number {
  const { id } = stmt(db, 'INSERT INTO super_nodes (kind, text) VALUES (?, ?) RETURNING id').get(kind, label) as { id: number };
  const insert = stmt(db, 'INSERT INTO super_members (super_id, node_id, sim) VALUES (?, ?, ?)');
  for (const [node, sim] of members) insert.run(id, node, sim);
  return id;
}

export function countSuperNodes(db: Db, kind: SuperKind): number {
  return (stmt(db, 'SELECT count(*) AS n FROM super_nodes WHERE kind = ?').get(kind) as { n: number }).n;
}
