// The queries `loci check` asks of an index (engine/check/check-index.ts decides what they mean) and
// the repairs it may make. Everything that reads here works on a read-only connection.
import type { Db } from './db.js';
import type { OwnerKind } from './embeddings.js';

/** SQLite's own check (with SQLite ≥ 3.44 it covers the FTS5 tables too): 'ok' is an empty list. */
export function integrityProblems(db: Db, max = 20): string[] {
  const rows = db.pragma(`integrity_check(${max})`) as { integrity_check: string }[];
  return rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
}

export interface ForeignKeyViolation {
  table: string;
  rowid: number;
  parent: string;
}

export function foreignKeyViolations(db: Db): ForeignKeyViolation[] {
  return (db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[]).map((r) => ({ table: r.table, rowid: r.rowid, parent: r.parent }));
}

/** The full-text tables and the rows each mirrors (rowid = the source row's id). */
export const FTS_TABLES = [{ fts: 'chunks_fts', source: 'chunks' }] as const;

/** FTS5's own structural check of one table; null when it holds. Needs a writable connection (it is an INSERT). */
export function ftsIntegrityProblem(db: Db, fts: string): string | null {
  try {
    db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('integrity-check')`).run();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Source rows without a full-text row, and full-text rows whose source row is gone. */
export function ftsMismatch(db: Db, fts: string, source: string): { missing: number[]; orphans: number[] } {
  const missing = db.prepare(`SELECT s.id FROM ${source} s WHERE NOT EXISTS (SELECT 1 FROM ${fts} f WHERE f.rowid = s.id)`).pluck().all() as number[];
  const orphans = db.prepare(`SELECT f.rowid FROM ${fts} f WHERE NOT EXISTS (SELECT 1 FROM ${source} s WHERE s.id = f.rowid)`).pluck().all() as number[];
  return { missing, orphans };
}

/** Documents whose derived rows come from more than one run: a passage number twice, two extractors' facts, two mind-map roots. */
export function documentsWrittenTwice(db: Db): { docId: number; what: string }[] {
  const rows = db
    .prepare(
      `SELECT document_id AS docId, 'passages' AS what FROM chunks GROUP BY document_id, ord HAVING count(*) > 1
       UNION SELECT document_id, 'facts of two extractors' FROM fcis GROUP BY document_id HAVING count(DISTINCT extractor) > 1
       UNION SELECT document_id, 'mind maps' FROM mm_nodes WHERE parent_id IS NULL GROUP BY document_id HAVING count(*) > 1`,
    )
    .all() as { docId: number; what: string }[];
  return rows;
}

/** Rows that point at another document's passage or mind-map node than their own. */
export function documentsMixedUp(db: Db): number[] {
  return db
    .prepare(
      `SELECT f.document_id FROM fcis f JOIN chunks c ON c.id = f.chunk_id WHERE c.document_id <> f.document_id
       UNION SELECT m.document_id FROM entity_mentions m JOIN chunks c ON c.id = m.chunk_id WHERE c.document_id <> m.document_id
       UNION SELECT t.document_id FROM triples t JOIN chunks c ON c.id = t.chunk_id WHERE c.document_id <> t.document_id
       UNION SELECT n.document_id FROM mm_nodes n JOIN mm_nodes p ON p.id = n.parent_id WHERE p.document_id <> n.document_id`,
    )
    .pluck()
    .all() as number[];
}

/** Derived rows whose document is gone (foreign keys catch these only while they are enforced). */
export function rowsWithoutDocument(db: Db): number {
  return db
    .prepare(
      `SELECT (SELECT count(*) FROM chunks WHERE document_id NOT IN (SELECT id FROM documents))
            + (SELECT count(*) FROM fcis WHERE document_id NOT IN (SELECT id FROM documents))
            + (SELECT count(*) FROM mm_nodes WHERE document_id NOT IN (SELECT id FROM documents))`,
    )
    .pluck()
    .get() as number;
}

/** Documents (by id) with a row of `kind` that has no vector from `model`; for entities, the documents mentioning them. */
export function documentsMissingVectors(db: Db, kind: OwnerKind, model: string): { rows: number; docIds: number[] } {
  const source: Record<OwnerKind, string> = {
    doc: "SELECT id, id AS doc FROM documents WHERE status = 'indexed'",
    chunk: 'SELECT id, document_id AS doc FROM chunks',
    fci: 'SELECT id, document_id AS doc FROM fcis',
    mm: 'SELECT id, document_id AS doc FROM mm_nodes',
    entity: 'SELECT e.id, (SELECT m.document_id FROM entity_mentions m WHERE m.entity_id = e.id LIMIT 1) AS doc FROM entities e',
  };
  const missing = db
    .prepare(`SELECT src.id, src.doc FROM (${source[kind]}) src WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = ? AND e.model = ? AND e.owner_id = src.id)`)
    .raw()
    .all(kind, model) as [number, number | null][];
  return { rows: missing.length, docIds: [...new Set(missing.map(([, doc]) => doc).filter((d): d is number => d !== null))] };
}

/** Documents a later run has yet to finish (graph_pending): their missing vectors are work left, not damage. */
export function pendingDocuments(db: Db): Set<number> {
  return new Set(db.prepare('SELECT document_id FROM graph_pending').pluck().all() as number[]);
}

/** Documents cleared for re-extraction (no content hash), which the next index run writes again. */
export function documentsAwaitingReindex(db: Db): number {
  return db.prepare("SELECT count(*) FROM documents WHERE status = 'indexed' AND content_hash IS NULL").pluck().get() as number;
}

// Repairs: each runs inside the caller's transaction.

export function deleteRowsByRowid(db: Db, table: string, rowids: number[]): void {
  const del = db.prepare(`DELETE FROM "${table.replaceAll('"', '""')}" WHERE rowid = ?`);
  for (const id of rowids) del.run(id);
}

/** The document ids of rows (by rowid) of a table that has a document_id column; empty for others. */
export function documentIdsOfRows(db: Db, table: string, rowids: number[]): number[] {
  const columns = db.pragma(`table_info("${table.replaceAll('"', '""')}")`) as { name: string }[];
  if (!columns.some((c) => c.name === 'document_id')) return [];
  const get = db.prepare(`SELECT document_id FROM "${table.replaceAll('"', '""')}" WHERE rowid = ?`).pluck();
  return rowids.map((id) => get.get(id) as number | null).filter((d): d is number => typeof d === 'number');
}

export function rebuildFts(db: Db, fts: string): void {
  db.prepare(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`).run();
}

export function deleteFtsRows(db: Db, fts: string, rowids: number[]): void {
  const del = db.prepare(`DELETE FROM ${fts} WHERE rowid = ?`);
  for (const id of rowids) del.run(id);
}

export function deleteRowsWithoutDocument(db: Db): void {
  for (const t of ['triples', 'entity_mentions', 'links', 'mm_nodes', 'fcis', 'chunks']) {
    db.prepare(`DELETE FROM ${t} WHERE document_id NOT IN (SELECT id FROM documents)`).run();
  }
}

/** Document ids of chunks (for chunks missing a full-text row: the note is written again). */
export function documentsOfChunks(db: Db, chunkIds: number[]): number[] {
  const get = db.prepare('SELECT document_id FROM chunks WHERE id = ?').pluck();
  return [...new Set(chunkIds.map((id) => get.get(id) as number | undefined).filter((d): d is number => d !== undefined))];
}

export function rebuildIndexes(db: Db): void {
  db.exec('REINDEX');
}

/**
 * What a rebuilt index keeps from the old file: the user's settings (`settingKeys`, not what describes
 * the derived rows), library folders with their scope, and conversations. Columns both files have are
 * copied; a table the old file cannot give is passed over and named in the result.
 */
export function copyKeptRows(from: Db, to: Db, settingKeys: readonly string[]): { copied: Record<string, number>; unreadable: string[] } {
  const copied: Record<string, number> = {};
  const unreadable: string[] = [];
  const columns = (db: Db, table: string) => (db.pragma(`table_info("${table}")`) as { name: string }[]).map((c) => c.name);
  to.transaction(() => {
    for (const table of ['settings', 'library_folders', 'chats', 'chat_messages']) {
      try {
        const wanted = columns(to, table);
        const shared = columns(from, table).filter((c) => wanted.includes(c));
        if (shared.length === 0) continue;
        const list = shared.map((c) => `"${c}"`).join(', ');
        const where = table === 'settings' ? ` WHERE key IN (SELECT value FROM json_each(?))` : '';
        const rows = from.prepare(`SELECT ${list} FROM "${table}"${where}`).raw().all(...(table === 'settings' ? [JSON.stringify(settingKeys)] : [])) as unknown[][];
        const insert = to.prepare(`INSERT OR REPLACE INTO "${table}" (${list}) VALUES (${shared.map(() => '?').join(', ')})`);
        for (const r of rows) insert.run(...r);
        copied[table] = rows.length;
      } catch {
        unreadable.push(table);
      }
    }
  })();
  return { copied, unreadable };
}
