import type { Db } from './db.js';
import type { MindMapView } from '../api.js';
import type { MindMapKind } from '../types.js';
import { capTreeDepth } from './tree-depth.js';

interface NodeRow {
  id: number;
  parent_id: number | null;
  kind: MindMapKind;
  text: string;
  line_from: number | null;
  line_to: number | null;
  extractor: string;
}

/** A note's mind map as a tree, each node with its source lines and its super-node siblings in other notes. */
export function loadMindMap(db: Db, docId: number): MindMapView | null {
  const doc = { id: docId };
  const rows = db
    .prepare('SELECT id, parent_id, kind, text, line_from, line_to, extractor FROM mm_nodes WHERE document_id = ? ORDER BY depth, ord')
    .all(doc.id) as NodeRow[];
  if (rows.length === 0) return null;
  const related = db
    .prepare(
      `SELECT mine.node_id AS mine, s.id AS superId, s.kind AS superKind, other.node_id AS nodeId, d.id AS docId, d.rel_path AS docPath, n.text, other.sim
       FROM super_members mine
       JOIN super_nodes s ON s.id = mine.super_id
       JOIN super_members other ON other.super_id = s.id AND other.node_id <> mine.node_id
       JOIN mm_nodes n ON n.id = other.node_id
       JOIN documents d ON d.id = n.document_id
       WHERE mine.node_id IN (SELECT id FROM mm_nodes WHERE document_id = ?) AND n.document_id <> ?`,
    )
    .all(doc.id, doc.id) as ({ mine: number } & MindMapView['related'][number])[];
  const views = new Map<number, MindMapView>();
  for (const r of rows) {
    views.set(r.id, {
      id: r.id,
      kind: r.kind,
      text: r.text,
      lineFrom: r.line_from,
      lineTo: r.line_to,
      extractor: r.extractor,
      related: [],
      children: [],
    });
  }
  for (const { mine, ...rel } of related) views.get(mine)?.related.push(rel);
  let root: MindMapView | null = null;
  for (const r of rows) {
    const v = views.get(r.id)!;
    if (r.parent_id === null) root = v;
    else views.get(r.parent_id)?.children.push(v);
  }
  return root && capTreeDepth(root);
}
