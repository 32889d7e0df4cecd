import type { Db } from '../store/db.js';
import { VectorMatrix } from '../embed/vector-matrix.js';

export const DEFAULT_DOC_NEIGHBOURS = 3;

/**
 * The document layer of KG-Retriever's hierarchical index graph: each document keeps edges to its K most
 * similar documents (weight = cosine). Incremental: only documents whose neighbour list can change are
 * recomputed — the changed ones, those that pointed at a changed or removed one, and those a changed
 * document now outranks.
 */
export function updateDocEdges(db: Db, docs: VectorMatrix, changed: Set<number> | 'all', k = DEFAULT_DOC_NEIGHBOURS): number {
  const current = loadEdges(db);
  const affected = new Set<number>();
  if (changed === 'all' || changed.size * 4 > docs.size) {
    for (const id of docs.ids) affected.add(id);
  } else {
    const live = new Set(docs.ids);
    for (const [src, edges] of current) {
      if (!live.has(src)) continue;
      if (changed.has(src) || edges.length < k || edges.some((e) => changed.has(e.dst) || !live.has(e.dst))) affected.add(src);
    }
    for (const id of docs.ids) if (!current.has(id)) affected.add(id);
    for (const c of changed) {
      const v = docs.vector(c);
      if (!v) continue;
      const scores = docs.scores(v);
      for (let r = 0; r < scores.length; r++) {
        const id = docs.ids[r];
        const edges = current.get(id);
        if (id !== c && edges && edges.length >= k && scores[r] > edges[edges.length - 1].weight) affected.add(id);
      }
    }
  }

  const del = db.prepare('DELETE FROM doc_edges WHERE src = ?');
  const ins = db.prepare('INSERT INTO doc_edges (src, dst, weight) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const id of affected) {
      del.run(id);
      const v = docs.vector(id);
      if (!v) continue;
      for (const n of docs.search(v, k, (other) => other !== id)) ins.run(id, n.id, n.score);
    }
  })();
  return affected.size;
}

function loadEdges(db: Db): Map<number, { dst: number; weight: number }[]> {
  const map = new Map<number, { dst: number; weight: number }[]>();
  const rows = db.prepare('SELECT src, dst, weight FROM doc_edges ORDER BY src, weight DESC').all() as { src: number; dst: number; weight: number }[];
  for (const r of rows) {
    let list = map.get(r.src);
    if (!list) map.set(r.src, (list = []));
    list.push({ dst: r.dst, weight: r.weight });
  }
  return map;
}
