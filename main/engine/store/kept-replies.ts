// The model pass's kept piece replies (migration 9): found by key, replaced per note as a pass rewrites
// it. A reply no note holds any more (its note removed, its piece edited) is released, not dropped
// (migration 10): found by key for RELEASED_DAYS, and forgotten with its library folder (released.ts).
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { forgetReleased, RELEASED_DAYS, type ReleasedToForget } from './released.js';
import type { KeptReply } from '../extract/llm/piece-facts.js';

/** The kept replies among these keys, whichever note kept them, else released ones. */
export function keptRepliesByKey(db: Db, keys: string[]): Map<string, KeptReply> {
  const rows = stmt(
    db,
    `SELECT key, reply FROM kept_replies WHERE key IN (SELECT value FROM json_each(@keys)) GROUP BY key
     UNION ALL
     SELECT key, reply FROM released_replies r WHERE key IN (SELECT value FROM json_each(@keys))
       AND NOT EXISTS (SELECT 1 FROM kept_replies k WHERE k.key = r.key)`,
  ).all({ keys: JSON.stringify(keys) }) as { key: string; reply: string }[];
  return new Map(rows.map((r) => [r.key, JSON.parse(r.reply) as KeptReply]));
}

/** The note's replies are now these (its last pass's): the ones of pieces it no longer has are released. */
export function keepReplies(db: Db, docId: number, replies: { key: string; reply: KeptReply }[]): void {
  const keys = JSON.stringify(replies.map((r) => r.key));
  release(db, docId, keys);
  stmt(db, 'DELETE FROM kept_replies WHERE document_id = ?').run(docId);
  const insert = stmt(db, 'INSERT OR REPLACE INTO kept_replies (document_id, key, reply) VALUES (?, ?, ?)');
  for (const r of replies) insert.run(docId, r.key, JSON.stringify(r.reply));
  stmt(db, 'DELETE FROM released_replies WHERE key IN (SELECT value FROM json_each(?))').run(keys);
}

/** Releases every reply the note holds: called before the note is deleted. */
export function releaseReplies(db: Db, docId: number): void {
  release(db, docId, '[]');
}

/** Forgets released replies: those of a library folder, or those released more than `days` ago. */
export function forgetReleasedReplies(db: Db, which: ReleasedToForget): number {
  return forgetReleased(db, 'released_replies', which);
}

/** Moves the note's replies other than `keptKeys` (a JSON array) to the released ones, and forgets the stale. */
function release(db: Db, docId: number, keptKeys: string): void {
  stmt(
    db,
    `INSERT OR REPLACE INTO released_replies (key, reply, root, released_at)
     SELECT k.key, k.reply, d.root, unixepoch() FROM kept_replies k JOIN documents d ON d.id = k.document_id
      WHERE k.document_id = ? AND k.key NOT IN (SELECT value FROM json_each(?))`,
  ).run(docId, keptKeys);
  forgetReleasedReplies(db, { days: RELEASED_DAYS });
}
