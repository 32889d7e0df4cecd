// What a note no longer holds is released, not dropped, for a note that brings it back: its model replies
// (migration 10, kept-replies.ts) and its vectors (migration 11, released-vectors.ts). Both wait
// RELEASED_DAYS and go with their library folder.
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** How long a released reply or vector waits for a note that brings it back. */
export const RELEASED_DAYS = 30;

export type ReleasedToForget = { root: string } | { days: number };

/** Forgets released rows of a table: those of a library folder, or those released more than `days` ago. */
export function forgetReleased(db: Db, table: 'released_replies' | 'released_vectors', which: ReleasedToForget): number {
  return 'root' in which
    ? stmt(db, `DELETE FROM ${table} WHERE root = ?`).run(which.root).changes
    : stmt(db, `DELETE FROM ${table} WHERE released_at < unixepoch() - ? * 86400`).run(which.days).changes;
}
