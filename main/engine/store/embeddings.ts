import { stmt } from './statements.js';
import type { Db } from './db.js';

/** The kinds of rows that carry vectors: documents, chunks, FCIs, mind-map nodes (by path text), entities. */
export type OwnerKind = 'doc' | 'chunk' | 'fci' | 'mm' | 'entity';

export function writeEmbeddings(db: Db, kind: OwnerKind, model: string, rows: { id: number; vector: Float32Array }[]): void {
  const insert = stmt(db, 'INSERT OR REPLACE INTO embeddings (owner_kind, owner_id, model, dim, vector) VALUES (?, ?, ?, ?, ?)');
  for (const r of rows) insert.run(kind, r.id, model, r.vector.length, Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength));
}

export function loadEmbeddings(db: Db, kind: OwnerKind, model: string): { id: number; vector: Float32Array }[] {
  const rows = db
    .prepare('SELECT owner_id AS id, vector FROM embeddings WHERE owner_kind = ? AND model = ? ORDER BY owner_id')
    .raw()
    .all(kind, model) as [number, Buffer][];
  return rows.map(([id, buf]) => ({ id, vector: toFloat32(buf) }));
}

export function loadEmbedding(db: Db, kind: OwnerKind, model: string, id: number): Float32Array | undefined {
  const row = db
    .prepare('SELECT vector FROM embeddings WHERE owner_kind = ? AND model = ? AND owner_id = ?')
    .get(kind, model, id) as { vector: Buffer } | undefined;
  return row ? toFloat32(row.vector) : undefined;
}

function toFloat32(buf: Buffer): Float32Array {
  // Copy: the Buffer may not be 4-byte aligned, and better-sqlite3 reuses nothing we should alias.
  const out = new Float32Array(buf.byteLength / 4);
  new Uint8Array(out.buffer).set(buf);
  return out;
}
