import type { Db } from '../store/db.js';
import type { Embedder } from './embedder.js';
import { writeEmbeddings, type OwnerKind } from '../store/embeddings.js';

/** What text stands for each kind of row when it is embedded (PG-RAG eq. 2: mind-map nodes by path). */
const SOURCES: Record<OwnerKind, string> = {
  doc: `SELECT d.id, d.title || char(10) || COALESCE((SELECT group_concat(c.text, char(10)) FROM chunks c WHERE c.document_id = d.id AND c.is_code = 0), '')
        FROM documents d WHERE d.status = 'indexed'`,
  chunk: `SELECT c.id, COALESCE(d.title, '') || ' ' || c.text FROM chunks c JOIN documents d ON d.id = c.document_id`,
  fci: 'SELECT id, text FROM fcis',
  mm: 'SELECT id, path_text FROM mm_nodes',
  entity: 'SELECT id, name FROM entities',
};

const KINDS: OwnerKind[] = ['doc', 'chunk', 'fci', 'mm', 'entity'];
const BATCH = 256;
/** Long documents are embedded by their beginning: enough for a topic vector, bounded cost. */
const MAX_CHARS = 8000;

export interface EmbedProgress {
  done: number;
  total: number;
}

/** Embeds every row that has no vector for this embedder yet. Incremental by construction. */
export async function embedMissing(db: Db, embedder: Embedder, onProgress?: (p: EmbedProgress) => void, signal?: AbortSignal): Promise<number> {
  const todo = KINDS.map((kind) => ({
    kind,
    rows: db
      .prepare(
        `SELECT * FROM (${SOURCES[kind]}) src
         WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = ? AND e.model = ? AND e.owner_id = src.id)`,
      )
      .raw()
      .all(kind, embedder.id) as [number, string][],
  }));
  const total = todo.reduce((s, t) => s + t.rows.length, 0);
  let done = 0;
  for (const { kind, rows } of todo) {
    for (let i = 0; i < rows.length; i += BATCH) {
      signal?.throwIfAborted();
      const batch = rows.slice(i, i + BATCH);
      const vectors = await embedder.embed(batch.map(([, text]) => (text ?? '').slice(0, MAX_CHARS)));
      db.transaction(() => writeEmbeddings(db, kind, embedder.id, batch.map(([id], j) => ({ id, vector: vectors[j]! }))))();
      done += batch.length;
      onProgress?.({ done, total });
    }
  }
  return total;
}
