// What an index run writes for one note: its rows replaced whole (keeping the vectors of texts it still
// holds), or its row as skipped with the reason.
import type { Db } from '../store/db.js';
import { UNJUDGED_LANGUAGE, type SkippedFile } from '../types.js';
import type { PreparedNote } from '../index-worker/prepare-note.js';
import type { ScannedFile } from '../ingest/scan.js';
import { releaseVectors, textsOf } from '../store/released-vectors.js';
import { noteVectorsByText, restoreNoteVectors, writeEmbeddings } from '../store/embeddings.js';
import { deleteDocument, findDocument, markGraphPending, upsertDocument, writeExtraction, writeParsedNote, type DocumentRow } from '../store/documents.js';

export interface NoteMeta {
  /** The content's hash; null when the note is read where it is prepared (the hash comes back with it). */
  hash: string | null;
  mtime: number | null;
  size: number;
  /** The note's row before this run, if any: unchanged bytes then only touch it. */
  known?: DocumentRow;
  /** No row for the note existed when the run looked: its rows are written without deleting first. */
  isNew?: boolean;
}

/**
 * One note's rows, replaced whole (the caller wraps this in the note's savepoint), all but the chunks'
 * full-text rows, which the caller writes after the batch's savepoints (writeChunkFts).
 */
export function writeNote(db: Db, root: string, p: PreparedNote, meta: NoteMeta, vectorsOf: string | null): { id: number; chunkIds: number[] } {
  const { note } = p;
  // A rewritten note keeps the vectors of the texts it still holds (an edit changes a few passages and
  // facts; a new extraction version may change none): with a model embedder, each costs real time.
  const knownId = meta.isNew ? undefined : (meta.known ?? findDocument(db, root, note.relPath))?.id;
  const kept = knownId === undefined ? null : noteVectorsByText(db, knownId, p.vectors?.model ?? null);
  const id = upsertDocument(
    db,
    { root, relPath: note.relPath, hash: meta.hash, mtime: meta.mtime, size: meta.size },
    { status: 'indexed', title: note.title, lang: UNJUDGED_LANGUAGE, frontMatter: note.frontMatter },
  );
  const chunkIds = writeParsedNote(db, id, note, p.chunkSeg, meta.isNew === true, 'later');
  const { fciIds, mmIds } = writeExtraction(db, id, p.extraction, true);
  const v = p.vectors;
  if (v) {
    writeEmbeddings(db, 'doc', v.model, [{ id, vector: v.doc }]);
    writeEmbeddings(db, 'chunk', v.model, chunkIds.map((cid, i) => ({ id: cid, vector: v.chunks[i]! })));
    writeEmbeddings(db, 'fci', v.model, fciIds.map((fid, i) => ({ id: fid, vector: v.fcis[i]! })));
    writeEmbeddings(db, 'mm', v.model, mmIds.map((mid, i) => ({ id: mid, vector: v.mm[i]! })));
  }
  if (kept?.size) {
    const left = restoreNoteVectors(db, id, kept);
    // The texts the note no longer holds (an edited passage, the facts of its last model pass) wait
    // for it to hold them again (released-vectors.ts).
    if (vectorsOf) releaseVectors(db, root, vectorsOf, textsOf(left, vectorsOf));
  }
  markGraphPending(db, [id]);
  return { id, chunkIds };
}

export function recordSkip(db: Db, root: string, skip: SkippedFile, file: ScannedFile | null): void {
  db.transaction(() => {
    const known = findDocument(db, root, skip.relPath);
    if (known) deleteDocument(db, known.id, 'release');
    upsertDocument(
      db,
      { root, relPath: skip.relPath, hash: null, mtime: file?.mtimeMs ?? null, size: file?.size ?? null },
      { status: 'skipped', error: `${skip.reason}: ${skip.detail}` },
    );
  })();
}

