import type { Db } from './db.js';
import { stmt } from './statements.js';

export interface DocEdge {
  dst: number;
  weight: number;
}

/** Every document's neighbour list, best first. */
export function loadDocEdges(db: Db): Map<number, DocEdge[]> {
  const map = new Map<number, DocEdge[]>();
  const rows = stmt(db, 'SELECT src, dst, weight FROM doc_edges ORDER BY src, weight DESC').raw().all() as [number, number, number][];
  for (const [src, dst, weight] of rows) {
    let list = map.get(src);
    if (!list) map.set(src, (list = []));
    list.push({ dst, weight });
  }
  return map;
}

/** Replaces the neighbour lists of the given documents, in one transaction. */
export function replaceDocEdges(db: Db, lists: Map<number, { id: number; score: number }[]>): void {
  const del = stmt(db, 'DELETE FROM doc_edges WHERE src = ?');
  const ins = stmt(db, 'INSERT INTO doc_edges (src, dst, weight) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const [src, neighbours] of lists) {
      del.run(src);
      for (const n of neighbours) ins.run(src, n.id, n.score);
    }
  })();
}
