import type { Db } from '../store/db.js';
import type { GraphNode, GraphView } from '../api.js';
import {
  docNeighbours,
  documentSuperTopics,
  edgesWithin,
  entitiesSharedWithin,
  graphDocuments,
  mentionsWithin,
  mostConnectedDocuments,
  superTopicMembersWithin,
  superTopicsWithin,
  type GraphDoc,
} from '../store/graph-queries.js';

/** Of a view's `limit` nodes: most go to notes, then shared entities, then super-topics. */
const SHARE = { docs: 0.6, entities: 0.3, supers: 0.1 };

/**
 * The cross-note graph for display: documents with their similarity edges, the entities several of
 * them share, and super-topics. Bounded by `limit` nodes, most connected first, so a view stays usable.
 * Each note carries its cluster keys (folder, strongest super-topic) so a UI can group a large graph.
 */
export function buildGraphView(db: Db, limit: number): GraphView {
  return assemble(db, mostConnectedDocuments(db, Math.ceil(limit * SHARE.docs)), limit);
}

/**
 * The graph around one note: notes within `hops` document-layer edges (nearest and strongest first),
 * with the entities and super-topics they share, in the same shape as the global view. Each note
 * carries its distance from the centre in `hops`.
 */
export function buildLocalGraph(db: Db, docId: number, hops: 1 | 2, limit: number): GraphView {
  const docBudget = Math.max(1, Math.ceil(limit * SHARE.docs));
  const distance = new Map<number, number>([[docId, 0]]);
  let frontier = [docId];
  for (let h = 1; h <= hops && distance.size < docBudget; h++) {
    const next: { docId: number; weight: number }[] = [];
    for (const d of frontier) for (const n of docNeighbours(db, d)) if (!distance.has(n.docId)) next.push(n);
    next.sort((a, b) => b.weight - a.weight);
    frontier = [];
    for (const n of next) {
      if (distance.size >= docBudget) break;
      if (distance.has(n.docId)) continue;
      distance.set(n.docId, h);
      frontier.push(n.docId);
    }
  }
  const docs = graphDocuments(db, distance.keys());
  if (!docs.some((d) => d.id === docId)) return { nodes: [], links: [] };
  const view = assemble(db, docs, limit);
  for (const n of view.nodes) if (n.docId !== undefined && n.kind === 'doc') n.hops = distance.get(n.docId);
  return view;
}

function assemble(db: Db, docs: GraphDoc[], limit: number): GraphView {
  const docIds = docs.map((d) => d.id);
  const topicOf = strongestTopics(db, docIds);
  const nodes: GraphNode[] = docs.map((d) => docNode(d, topicOf));
  const links: GraphView['links'] = edgesWithin(db, docIds).map((e) => ({ source: `d${e.src}`, target: `d${e.dst}`, kind: 'similar', weight: e.weight }));

  const entities = entitiesSharedWithin(db, docIds, Math.floor(limit * SHARE.entities));
  for (const e of entities) nodes.push({ id: `e${e.id}`, kind: 'entity', label: e.name, weight: e.docs });
  for (const m of mentionsWithin(db, entities.map((e) => e.id), docIds)) {
    links.push({ source: `e${m.entityId}`, target: `d${m.docId}`, kind: 'mentions', weight: 1 });
  }

  const supers = superTopicsWithin(db, docIds, Math.floor(limit * SHARE.supers));
  for (const s of supers) nodes.push({ id: `s${s.id}`, kind: 'super-topic', label: s.text, weight: s.docs });
  for (const m of superTopicMembersWithin(db, supers.map((s) => s.id), docIds)) {
    links.push({ source: `s${m.superId}`, target: `d${m.docId}`, kind: 'super-topic', weight: 1 });
  }
  return { nodes, links };
}

/** A note as a graph node, with its cluster keys. */
export function docNode(d: GraphDoc, topicOf: Map<number, { topic: string; topicLabel: string }>): GraphNode {
  return { id: `d${d.id}`, kind: 'doc', label: d.title, docId: d.id, docPath: d.relPath, weight: d.degree, folder: folderOf(d.relPath), ...topicOf.get(d.id) };
}

/** The folder a note sits in, relative to its library folder (`''` at the top level). */
export function folderOf(relPath: string): string {
  const cut = relPath.lastIndexOf('/');
  return cut < 0 ? '' : relPath.slice(0, cut);
}

/** Each note's largest super-topic (ties: the lower id), as `s<id>` so it matches the super-topic node. */
export function strongestTopics(db: Db, docIds: number[]): Map<number, { topic: string; topicLabel: string }> {
  const best = new Map<number, { superId: number; size: number; text: string }>();
  for (const r of documentSuperTopics(db, docIds)) {
    const b = best.get(r.docId);
    if (!b || r.size > b.size || (r.size === b.size && r.superId < b.superId)) best.set(r.docId, r);
  }
  return new Map([...best].map(([docId, b]) => [docId, { topic: `s${b.superId}`, topicLabel: b.text }]));
}
