import type { Db } from './db.js';
import type { IndexCounts } from '../types.js';

export function indexCounts(db: Db): IndexCounts {
  const n = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0;
  return {
    documents: n("SELECT count(*) FROM documents WHERE status = 'indexed'"),
    chunks: n('SELECT count(*) FROM chunks'),
    fcis: n('SELECT count(*) FROM fcis'),
    mindMapNodes: n('SELECT count(*) FROM mm_nodes'),
    entities: n('SELECT count(*) FROM entities'),
    triples: n('SELECT count(*) FROM triples'),
    docEdges: n('SELECT count(*) FROM doc_edges'),
    superNodes: n('SELECT count(*) FROM super_nodes'),
    skipped: n("SELECT count(*) FROM documents WHERE status <> 'indexed'"),
  };
}
