import type { Db } from '../store/db.js';
import type { GraphView } from '../api.js';

/**
 * The cross-note graph for display: documents with their similarity edges, the entities that several
 * notes share, and super-topics. Bounded by `limit` nodes, most connected first, so a view stays usable.
 */
export function buildGraphView(db: Db, limit: number): GraphView {
  const docs = db
    .prepare(
      `SELECT d.id, d.title, d.rel_path, (SELECT count(*) FROM doc_edges e WHERE e.src = d.id OR e.dst = d.id) AS degree
       FROM documents d WHERE d.status = 'indexed' ORDER BY degree DESC, d.id LIMIT ?`,
    )
    .all(Math.ceil(limit * 0.6)) as { id: number; title: string; rel_path: string; degree: number }[];
  const docIds = new Set(docs.map((d) => d.id));
  const nodes: GraphView['nodes'] = docs.map((d) => ({ id: `d${d.id}`, kind: 'doc', label: d.title, docId: d.id, docPath: d.rel_path, weight: d.degree }));
  const links: GraphView['links'] = [];
  for (const e of db.prepare('SELECT src, dst, weight FROM doc_edges').all() as { src: number; dst: number; weight: number }[]) {
    if (docIds.has(e.src) && docIds.has(e.dst)) links.push({ source: `d${e.src}`, target: `d${e.dst}`, kind: 'similar', weight: e.weight });
  }

  const shared = db
    .prepare(
      `SELECT e.id, e.name, count(DISTINCT m.document_id) AS docs FROM entities e JOIN entity_mentions m ON m.entity_id = e.id
       GROUP BY e.id HAVING docs >= 2 ORDER BY docs DESC LIMIT ?`,
    )
    .all(Math.floor(limit * 0.3)) as { id: number; name: string; docs: number }[];
  const mentionRows = db.prepare('SELECT DISTINCT document_id FROM entity_mentions WHERE entity_id = ?').pluck();
  for (const e of shared) {
    nodes.push({ id: `e${e.id}`, kind: 'entity', label: e.name, weight: e.docs });
    for (const docId of mentionRows.all(e.id) as number[]) {
      if (docIds.has(docId)) links.push({ source: `e${e.id}`, target: `d${docId}`, kind: 'mentions', weight: 1 });
    }
  }

  const supers = db
    .prepare(
      `SELECT s.id, s.text, count(*) AS members FROM super_nodes s JOIN super_members m ON m.super_id = s.id
       WHERE s.kind = 'topic' GROUP BY s.id ORDER BY members DESC LIMIT ?`,
    )
    .all(Math.floor(limit * 0.1)) as { id: number; text: string; members: number }[];
  const memberDocs = db
    .prepare('SELECT DISTINCT n.document_id FROM super_members m JOIN mm_nodes n ON n.id = m.node_id WHERE m.super_id = ?')
    .pluck();
  for (const s of supers) {
    nodes.push({ id: `s${s.id}`, kind: 'super-topic', label: s.text, weight: s.members });
    for (const docId of memberDocs.all(s.id) as number[]) {
      if (docIds.has(docId)) links.push({ source: `s${s.id}`, target: `d${docId}`, kind: 'super-topic', weight: 1 });
    }
  }
  return { nodes, links };
}
