// Vectors no row holds any more (migration 11), by model and embedded text: released when a note is
// removed or rewritten, taken back by the next embedding of the same text, forgotten after
// RELEASED_DAYS or with their library folder (released.ts).
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { forgetReleased, RELEASED_DAYS, type ReleasedToForget } from './released.js';
import { EMBEDDED_TEXT_MAX_CHARS, noteVectorsByText, toFloat32, type VectorsByText } from './embeddings.js';

/** Releases these vectors of `model` (text → vector), made for notes of the library folder `root`. */
export function releaseVectors(db: Db, root: string, model: string, vectors: Iterable<[string, Buffer]>): number {
  const insert = stmt(db, 'INSERT OR REPLACE INTO released_vectors (model, text, dim, vector, root, released_at) VALUES (?, ?, ?, ?, ?, unixepoch())');
  let n = 0;
  for (const [text, vector] of vectors) {
    // A longer text is embedded by its beginning, and never looked up whole.
    if (text.length > EMBEDDED_TEXT_MAX_CHARS) continue;
    insert.run(model, text, vector.byteLength / 4, vector, root);
    n++;
  }
  if (n) forgetReleasedVectors(db, { days: RELEASED_DAYS });
  return n;
}

/** Releases every vector of `model` the note's own rows hold: called before the note is deleted. */
export function releaseNoteVectors(db: Db, docId: number, model: string): number {
  const root = stmt(db, 'SELECT root FROM documents WHERE id = ?').pluck().get(docId) as string | undefined;
  if (root === undefined) return 0;
  return releaseVectors(db, root, model, textsOf(noteVectorsByText(db, docId), model));
}

/** Library-wide names (entities), which no one folder made: forgotten with age, never with a folder. */
const SHARED_ROOT = '';

/** Releases the `model` vectors of these entities (their names as the texts), before they are deleted. */
export function releaseEntityVectors(db: Db, entityIds: number[], model: string): number {
  const rows = stmt(
    db,
    `SELECT e.name, v.vector FROM json_each(?) j CROSS JOIN entities e ON e.id = j.value
       CROSS JOIN embeddings v ON v.owner_kind = 'entity' AND v.model = ? AND v.owner_id = e.id`,
  )
    .raw()
    .all(JSON.stringify(entityIds), model) as [string, Buffer][];
  return releaseVectors(db, SHARED_ROOT, model, rows);
}

/** The vectors of a model in a note's vectors by text (a text several kinds share counts once). */
export function textsOf(kept: VectorsByText, model: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const byText of kept.get(model)?.values() ?? []) for (const [text, vector] of byText) out.set(text, vector);
  return out;
}

/** Whether any vector of `model` is released (else a run of embedding need not look texts up). */
export function hasReleasedVectors(db: Db, model: string): boolean {
  return stmt(db, 'SELECT 1 FROM released_vectors WHERE model = ? LIMIT 1').get(model) !== undefined;
}

/** The released vectors of `model` for these texts. */
export function releasedVectorsFor(db: Db, model: string, texts: string[]): Map<string, Float32Array> {
  if (!texts.length) return new Map();
  const rows = stmt(db, 'SELECT text, vector FROM released_vectors WHERE model = ? AND text IN (SELECT value FROM json_each(?))')
    .raw()
    .all(model, JSON.stringify(texts)) as [string, Buffer][];
  return new Map(rows.map(([text, vector]) => [text, toFloat32(vector)]));
}

/** Released vectors a row holds again leave the released ones. */
export function forgetTakenVectors(db: Db, model: string, texts: string[]): void {
  if (texts.length) stmt(db, 'DELETE FROM released_vectors WHERE model = ? AND text IN (SELECT value FROM json_each(?))').run(model, JSON.stringify(texts));
}

/** Forgets released vectors: those of a library folder, or those released more than `days` ago. */
export function forgetReleasedVectors(db: Db, which: ReleasedToForget): number {
  return forgetReleased(db, 'released_vectors', which);
}
