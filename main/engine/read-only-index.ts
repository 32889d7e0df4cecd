// What people are told about an index opened read-only: at open (a notice naming the cause) and when
// they try to change it (a conflict, answered 409, naming the cause again).
import type { Db } from './store/db.js';
import { ConflictError } from './errors.js';

const causes = new WeakMap<Db, string>();

/** The notice shown once the index is open; remembers the cause for later refusals. */
export function readOnlyNotice(db: Db, dbPath: string, cause: string): string {
  causes.set(db, cause);
  return `The index ${dbPath} is open read-only because ${cause}: asking, stats and mind maps work; indexing, settings and chats are not saved.`;
}

export class ReadOnlyIndexError extends ConflictError {
  constructor(db: Db, dbPath: string, action: string) {
    super(`Cannot ${action}: the index ${dbPath} is open read-only because ${causes.get(db) ?? 'it was opened for reading'}.`);
    this.name = 'ReadOnlyIndexError';
  }
}
