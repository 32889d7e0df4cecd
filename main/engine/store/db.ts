import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;

/** Opens (creating if needed) a Loci index database: WAL, foreign keys on, migrations applied. */
export function openDb(file: string, options: { readonly?: boolean } = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: options.readonly ?? false });
  try {
    if (!options.readonly) db.pragma('journal_mode = WAL');
  } catch (err) {
    db.close();
    throw new Error(`${file} is not a Loci index (SQLite: ${err instanceof Error ? err.message : String(err)}). Pick another --db file.`);
  }
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) migrate(db);
  return db;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Db): void {
  const current = schemaVersion(db);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  if (current > latest) {
    throw new Error(`This index was written by a newer Loci (schema ${current}, this build knows ${latest}). Update Loci or pick another index file.`);
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
