// The whole library at a glance: clusters (graph/clusters.ts) with the document-layer edges between them
// counted, and one cluster opened into its notes, each note's edges to the other clusters counted too.
// Small at any library size: a few dozen clusters and their pairs, never every note.
import type { Db } from '../store/db.js';
import { allDocEdges } from '../store/graph-queries.js';
import { NotFoundError } from '../errors.js';
import type { ClusterGrouping, ClusterLink, ClusterView, GraphCluster, GraphOverview } from '../api.js';
import { clusterLibrary, commonTopics, type Cluster, type Clustering } from './clusters.js';
import { docNode } from './graph-view.js';

export function buildGraphOverview(db: Db, by: ClusterGrouping = 'folder'): GraphOverview {
  const clustering = clusterLibrary(db, by);
  const inner = new Map<string, number>();
  const between = new Map<string, ClusterLink>();
  for (const [src, dst] of allDocEdges(db)) {
    const a = clustering.clusterOf.get(src);
    const b = clustering.clusterOf.get(dst);
    if (a === undefined || b === undefined) continue;
    if (a === b) {
      inner.set(a, (inner.get(a) ?? 0) + 1);
      continue;
    }
    // One link per pair of clusters, whichever way its edges point.
    const [source, target] = a < b ? [a, b] : [b, a];
    const key = `${source}\n${target}`;
    const link = between.get(key) ?? between.set(key, { source, target, weight: 0 }).get(key)!;
    link.weight++;
  }
  return {
    by,
    notes: clustering.clusterOf.size,
    clusters: clustering.clusters.map((c) => summary(c, clustering, inner.get(c.id) ?? 0)),
    links: [...between.values()].sort((x, y) => y.weight - x.weight),
  };
}

/** One cluster's notes, the edges among them, and each note's edges to every other cluster (counted). */
export function buildClusterView(db: Db, id: string, by: ClusterGrouping = 'folder'): ClusterView {
  const clustering = clusterLibrary(db, by);
  const cluster = clustering.clusters.find((c) => c.id === id);
  if (!cluster) throw new NotFoundError(`No cluster '${id}' in the overview (the library may have changed: open the overview again).`);
  const mine = new Set(cluster.docs.map((d) => d.id));
  const links: ClusterView['links'] = [];
  const outward = new Map<string, ClusterLink>();
  for (const [src, dst, weight] of allDocEdges(db)) {
    const inSrc = mine.has(src);
    const inDst = mine.has(dst);
    if (inSrc && inDst) {
      links.push({ source: `d${src}`, target: `d${dst}`, kind: 'similar', weight });
      continue;
    }
    if (!inSrc && !inDst) continue;
    const [note, other] = inSrc ? [src, dst] : [dst, src];
    const target = clustering.clusterOf.get(other);
    if (target === undefined) continue;
    const key = `${note}\n${target}`;
    const link = outward.get(key) ?? outward.set(key, { source: `d${note}`, target, weight: 0 }).get(key)!;
    link.weight++;
  }
  return {
    cluster: summary(cluster, clustering, links.length),
    nodes: cluster.docs.map((d) => docNode(d, clustering.topicOf)),
    links,
    outward: [...outward.values()],
  };
}

function summary(c: Cluster, clustering: Clustering, innerLinks: number): GraphCluster {
  return { id: c.id, kind: c.kind, label: c.label, folder: c.folder, notes: c.docs.length, innerLinks, topics: commonTopics(c, clustering.topicOf) };
}
