// Snapshots of values retrieval derives from the whole index (migration 12), one per key, each with the
// fingerprint of the index state it was derived from.
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** The snapshot kept under `key`, if it was derived from the index state `fingerprint` names. */
export function readDerivedSnapshot(db: Db, key: string, fingerprint: string): Buffer | undefined {
  return stmt(db, 'SELECT data FROM derived_snapshots WHERE key = ? AND fingerprint = ?').pluck().get(key, fingerprint) as Buffer | undefined;
}

/** Whether the snapshot kept under `key` was derived from the index state `fingerprint` names. */
export function hasDerivedSnapshot(db: Db, key: string, fingerprint: string): boolean {
  return stmt(db, 'SELECT 1 FROM derived_snapshots WHERE key = ? AND fingerprint = ?').get(key, fingerprint) !== undefined;
}

/** Forgets every snapshot: the next process derives everything again (benchmarks time that). */
export function forgetDerivedSnapshots(db: Db): void {
  stmt(db, 'DELETE FROM derived_snapshots').run();
}

/** Keeps `data` under `key` in place of whatever was kept there. */
export function writeDerivedSnapshot(db: Db, key: string, fingerprint: string, data: Buffer): void {
  stmt(db, 'INSERT OR REPLACE INTO derived_snapshots (key, fingerprint, data, written_at) VALUES (?, ?, ?, unixepoch())').run(key, fingerprint, data);
}
