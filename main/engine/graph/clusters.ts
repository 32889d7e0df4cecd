// Groups the whole library into a few dozen clusters a person can read at a glance: folders first, the
// biggest split into their sub-folders while the count allows, and a folder still too big with no
// sub-folders to split split by its notes' strongest super-topics. Or, when asked, by super-topic alone.
import path from 'node:path';
import type { Db } from '../store/db.js';
import { allGraphDocuments, type GraphDoc } from '../store/graph-queries.js';
import type { ClusterGrouping } from '../api.js';
import { folderOf, strongestTopics } from './graph-view.js';

/** At most this many clusters: beyond it an overview is a hairball again. */
export const MAX_CLUSTERS = 48;

/** A super-topic with fewer notes joins its folder's "other topics" cluster. */
const MIN_TOPIC_NOTES = 3;

export interface Cluster {
  id: string;
  kind: 'folder' | 'topic';
  label: string;
  folder: string;
  docs: GraphDoc[];
}

export interface Clustering {
  clusters: Cluster[];
  clusterOf: Map<number, string>;
  topicOf: Map<number, { topic: string; topicLabel: string }>;
}

/** A folder with the notes directly in it and its sub-folders. */
interface FolderNode {
  root: string;
  path: string;
  direct: GraphDoc[];
  children: Map<string, FolderNode>;
  size: number;
}

/** A cluster while the split runs: a folder's whole subtree, only the notes directly in it, or a set of notes. */
type Part = Cluster & { node?: FolderNode; subtree: boolean; tried?: boolean };

export function clusterLibrary(db: Db, by: ClusterGrouping = 'folder'): Clustering {
  const docs = allGraphDocuments(db);
  const topicOf = strongestTopics(db, docs.map((d) => d.id));
  const clusters = by === 'topic' ? byTopic(docs, topicOf) : byFolder(docs, topicOf);
  clusters.sort((a, b) => b.docs.length - a.docs.length || a.label.localeCompare(b.label));
  const clusterOf = new Map<number, string>();
  for (const c of clusters) for (const d of c.docs) clusterOf.set(d.id, c.id);
  return { clusters, clusterOf, topicOf };
}

/** A cluster's commonest super-topic names, most notes first. */
export function commonTopics(c: Cluster, topicOf: Clustering['topicOf'], n = 3): string[] {
  const counts = new Map<string, number>();
  for (const d of c.docs) {
    const t = topicOf.get(d.id)?.topicLabel;
    if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n).map(([t]) => t);
}

function byFolder(docs: GraphDoc[], topicOf: Clustering['topicOf']): Cluster[] {
  const roots = new Map<string, FolderNode>();
  for (const d of docs) {
    let node = roots.get(d.root) ?? roots.set(d.root, folderNode(d.root, '')).get(d.root)!;
    node.size++;
    const folder = folderOf(d.relPath);
    for (const name of folder ? folder.split('/') : []) {
      const next = node.children.get(name) ?? node.children.set(name, folderNode(d.root, node.path ? `${node.path}/${name}` : name)).get(name)!;
      next.size++;
      node = next;
    }
    node.direct.push(d);
  }
  const multiRoot = roots.size > 1;
  const label = (root: string, folder: string) => (multiRoot ? [path.basename(root), folder].filter(Boolean).join('/') : folder || path.basename(root) || root);
  const subtree = (n: FolderNode): Part => ({ id: `folder:${n.root}/${n.path}`, kind: 'folder', label: label(n.root, n.path), folder: n.path, docs: notesUnder(n), node: n, subtree: true });

  // Split the biggest cluster above the target size first, while the count stays within MAX_CLUSTERS.
  const splitAbove = Math.max(12, Math.ceil(docs.length / 12));
  let parts: Part[] = [...roots.values()].map(subtree);
  for (;;) {
    const next = parts.filter((p) => !p.tried && p.docs.length > splitAbove).sort((a, b) => b.docs.length - a.docs.length)[0];
    if (!next) break;
    next.tried = true;
    const room = MAX_CLUSTERS - parts.length + 1;
    const pieces = next.subtree && next.node!.children.size ? folderPieces(next.node!, subtree, label) : topicPieces(next, topicOf, room);
    if (pieces.length < 2 && !(pieces.length === 1 && next.subtree && next.node!.children.size)) continue;
    if (pieces.length > room) continue;
    parts = parts.filter((p) => p !== next).concat(pieces);
  }
  return parts.map(({ id, kind, label: l, folder, docs: d }) => ({ id, kind, label: l, folder, docs: d }));
}

/** A folder's sub-folders as clusters, and the notes directly in it as one more. */
function folderPieces(n: FolderNode, subtree: (n: FolderNode) => Part, label: (root: string, folder: string) => string): Part[] {
  const pieces = [...n.children.values()].map(subtree);
  if (n.direct.length) {
    pieces.push({ id: `notes-in:${n.root}/${n.path}`, kind: 'folder', label: `${label(n.root, n.path)} (own notes)`, folder: n.path, docs: n.direct, node: n, subtree: false });
  }
  return pieces;
}

/** A folder's notes by their strongest super-topic: the topics with enough notes, and the rest as one cluster. */
function topicPieces(p: Part, topicOf: Clustering['topicOf'], room: number): Part[] {
  const groups = groupByTopic(p.docs, topicOf);
  const kept = groups.filter((g) => g.key !== null && g.docs.length >= MIN_TOPIC_NOTES).slice(0, room - 1);
  if (!kept.length) return [];
  const keptKeys = new Set(kept.map((g) => g.key));
  const rest = p.docs.filter((d) => !keptKeys.has(topicOf.get(d.id)?.topic ?? null));
  const pieces: Part[] = kept.map((g) => ({ id: `topic:${g.key}@${p.id}`, kind: 'topic', label: `${g.label} (${p.label})`, folder: p.folder, docs: g.docs, subtree: false }));
  if (rest.length) pieces.push({ id: `topic:other@${p.id}`, kind: 'topic', label: `${p.label} (other topics)`, folder: p.folder, docs: rest, subtree: false });
  return pieces;
}

function byTopic(docs: GraphDoc[], topicOf: Clustering['topicOf']): Cluster[] {
  const groups = groupByTopic(docs, topicOf);
  const kept = groups.filter((g) => g.key !== null && g.docs.length >= 2).slice(0, MAX_CLUSTERS - 1);
  const keptKeys = new Set(kept.map((g) => g.key));
  const rest = docs.filter((d) => !keptKeys.has(topicOf.get(d.id)?.topic ?? null));
  const clusters: Cluster[] = kept.map((g) => ({ id: `topic:${g.key}`, kind: 'topic', label: g.label, folder: '', docs: g.docs }));
  if (rest.length) clusters.push({ id: 'topic:other', kind: 'topic', label: 'Other notes (no shared super-topic)', folder: '', docs: rest });
  return clusters;
}

function groupByTopic(docs: GraphDoc[], topicOf: Clustering['topicOf']): { key: string | null; label: string; docs: GraphDoc[] }[] {
  const groups = new Map<string | null, { key: string | null; label: string; docs: GraphDoc[] }>();
  for (const d of docs) {
    const t = topicOf.get(d.id);
    const key = t?.topic ?? null;
    const g = groups.get(key) ?? groups.set(key, { key, label: t?.topicLabel ?? '', docs: [] }).get(key)!;
    g.docs.push(d);
  }
  return [...groups.values()].sort((a, b) => b.docs.length - a.docs.length || a.label.localeCompare(b.label));
}

function folderNode(root: string, folder: string): FolderNode {
  return { root, path: folder, direct: [], children: new Map(), size: 0 };
}

function notesUnder(n: FolderNode): GraphDoc[] {
  const out = [...n.direct];
  for (const c of n.children.values()) out.push(...notesUnder(c));
  return out;
}
