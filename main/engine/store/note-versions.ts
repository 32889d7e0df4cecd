// Which notes an index change rewrote, for what retrieval keeps per note across index generations (title
// hits, character-bigram counts): a note's content hash and the chunk rows it was written to. The same
// content in the same rows is the same text; a note written again gets new rows or a new hash (chunk ids
// are reused rowids, so the id alone would not tell).
import type { Db } from './db.js';

/** Every note's version (null where its content is not known: it is read again each time). */
export function noteVersions(db: Db): Map<number, string | null> {
  const rows = db
    .prepare('SELECT d.id, d.content_hash, c.id FROM documents d LEFT JOIN chunks c ON c.document_id = d.id ORDER BY d.id, c.ord')
    .raw()
    .all() as [number, string | null, number | null][];
  const versions = new Map<number, string | null>();
  let chunks: number[] = [];
  rows.forEach(([docId, hash, chunkId], i) => {
    if (chunkId !== null) chunks.push(chunkId);
    if (rows[i + 1]?.[0] === docId) return;
    versions.set(docId, hash === null ? null : `${hash}:${chunks.join(',')}`);
    chunks = [];
  });
  return versions;
}
