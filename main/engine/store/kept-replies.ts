// The model pass's kept piece replies (migration 9): found by key, replaced per note as a pass rewrites it.
import type { Db } from './db.js';
import { stmt } from './statements.js';
import type { KeptReply } from '../extract/llm/piece-facts.js';

/** The kept replies among these keys, whichever note kept them. */
export function keptRepliesByKey(db: Db, keys: string[]): Map<string, KeptReply> {
  const rows = stmt(db, 'SELECT key, reply FROM kept_replies WHERE key IN (SELECT value FROM json_each(?)) GROUP BY key')
    .all(JSON.stringify(keys)) as { key: string; reply: string }[];
  return new Map(rows.map((r) => [r.key, JSON.parse(r.reply) as KeptReply]));
}

/** The note's replies are now these (its last pass's): the ones of pieces it no longer has go. */
export function keepReplies(db: Db, docId: number, replies: { key: string; reply: KeptReply }[]): void {
  stmt(db, 'DELETE FROM kept_replies WHERE document_id = ?').run(docId);
  const insert = stmt(db, 'INSERT OR REPLACE INTO kept_replies (document_id, key, reply) VALUES (?, ?, ?)');
  for (const r of replies) insert.run(docId, r.key, JSON.stringify(r.reply));
}
