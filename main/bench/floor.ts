import Database from 'better-sqlite3';

/**
 * The floor `loci bench-index` measures Loci against: every note inserted into one plain SQLite FTS5
 * table (path, hash, text) in one loop and one transaction — what any indexer must at least pay.
 */
export function openFloorDb(file: string): { insert(path: string, hash: string, text: string): void; commit(): void; close(): void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE VIRTUAL TABLE notes USING fts5(path, hash, body)');
  const insert = db.prepare('INSERT INTO notes (path, hash, body) VALUES (?, ?, ?)');
  db.exec('BEGIN');
  return {
    insert: (path, hash, text) => void insert.run(path, hash, text),
    commit: () => db.exec('COMMIT'),
    close: () => db.close(),
  };
}
