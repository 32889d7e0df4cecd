import type { Db } from './db.js';
import { releaseReplies } from './kept-replies.js';
import { releaseEntityVectors, releaseNoteVectors } from './released-vectors.js';
import { stmt } from './statements.js';
import { UNDETERMINED_LANGUAGE, type DocumentStatus, type Extraction, type MindMapNode, type ParsedChunk, type ParsedNote } from '../types.js';
import { segmentForIndex } from '../text/segment.js';
import { detectLang } from '../text/lang.js';
import { normalizeLinkTarget, normalizeName } from './names.js';
import { PATH_SEPARATOR } from '../../contract/shapes/domain.js';

/** A mind-map node's path text (what it is embedded by): its ancestors' texts and its own, joined. */
export function mindMapPathText(parentPath: string, text: string): string {
  return parentPath ? `${parentPath}${PATH_SEPARATOR}${text}` : text;
}

export interface DocumentRow {
  id: number;
  root: string;
  rel_path: string;
  title: string;
  lang: string;
  content_hash: string | null;
  mtime: number | null;
  size: number | null;
  status: DocumentStatus;
  error: string | null;
}

export function findDocument(db: Db, root: string, relPath: string): DocumentRow | undefined {
  return stmt(db, 'SELECT * FROM documents WHERE root = ? AND rel_path = ?').get(root, relPath) as DocumentRow | undefined;
}

/** The folder's document rows, as every index run reads them (the row's fields only, not its front matter). */
export function documentsUnder(db: Db, root: string): DocumentRow[] {
  return stmt(db, 'SELECT id, root, rel_path, title, lang, content_hash, mtime, size, status, error FROM documents WHERE root = ?').all(root) as DocumentRow[];
}

export function getDocument(db: Db, id: number): DocumentRow | undefined {
  return stmt(db, 'SELECT * FROM documents WHERE id = ?').get(id) as DocumentRow | undefined;
}

export interface DocumentMeta {
  root: string;
  relPath: string;
  hash: string | null;
  mtime: number | null;
  size: number | null;
}

/** Inserts or updates the document row; returns its id. Derived rows are left to the caller. */
export function upsertDocument(
  db: Db,
  meta: DocumentMeta,
  fields: { status: DocumentStatus; title?: string; lang?: string; error?: string | null; frontMatter?: Record<string, unknown> },
): number {
  const row = stmt(
    db,
    `INSERT INTO documents (root, rel_path, title, lang, content_hash, mtime, size, status, error, front_matter, indexed_at)
       VALUES (@root, @relPath, @title, @lang, @hash, @mtime, @size, @status, @error, @frontMatter, datetime('now'))
       ON CONFLICT (root, rel_path) DO UPDATE SET
         title = excluded.title, lang = excluded.lang, content_hash = excluded.content_hash, mtime = excluded.mtime,
         size = excluded.size, status = excluded.status, error = excluded.error, front_matter = excluded.front_matter,
         indexed_at = excluded.indexed_at
       RETURNING id`,
  ).get({
      ...meta,
      title: fields.title ?? meta.relPath,
      lang: fields.lang ?? UNDETERMINED_LANGUAGE,
      status: fields.status,
      error: fields.error ?? null,
      frontMatter: safeJson(fields.frontMatter ?? {}),
    }) as { id: number };
  return row.id;
}

/**
 * A bigger page cache for the connection that writes a whole folder: each note touches many indexes
 * (entities by name, embeddings, FTS), and with SQLite's default 2 MB cache most of those pages were
 * read back from the OS on every batch.
 */
export function useBulkWriteCache(db: Db): void {
  const kib = 64 * 1024;
  if (Math.abs(Number(db.pragma('cache_size', { simple: true }))) < kib) db.pragma(`cache_size = -${kib}`);
}

/** A note whose content is unchanged though its file was touched: remember the new stat, keep the rows. */
export function touchDocument(db: Db, docId: number, mtime: number, size: number): void {
  stmt(db, 'UPDATE documents SET mtime = ?, size = ? WHERE id = ?').run(mtime, size, docId);
}

/** A note moved or renamed within its folder, its text the same: every row derived from it stays its own. */
export function moveDocument(db: Db, docId: number, relPath: string, mtime: number, size: number): void {
  stmt(db, 'UPDATE documents SET rel_path = ?, mtime = ?, size = ? WHERE id = ?').run(relPath, mtime, size, docId);
}

export function hasIndexedDocuments(db: Db): boolean {
  return stmt(db, "SELECT 1 FROM documents WHERE status = 'indexed' LIMIT 1").get() !== undefined;
}

/**
 * Replaces the document's chunks and links (and with them every row derived from the old chunks).
 * `chunkSeg` is the chunks' FTS text when already segmented (by an indexing worker), else made here.
 */
export function writeParsedNote(
  db: Db,
  docId: number,
  note: ParsedNote,
  chunkSeg?: string[],
  isNew = false,
  /** 'later': the caller writes the full-text rows with writeChunkFts (see there). */
  fts: 'now' | 'later' = 'now',
): number[] {
  // A document row inserted just now has nothing to replace (a deleted document took its rows with it).
  if (!isNew) {
    clearDerived(db, docId);
    stmt(db, 'DELETE FROM chunks WHERE document_id = ?').run(docId);
    stmt(db, 'DELETE FROM links WHERE document_id = ?').run(docId);
    // The note's own vectors, of every model, are of its old title and passages: the row stays, so no
    // trigger takes them, and an embedder outside the indexing workers would keep them for good.
    stmt(db, "DELETE FROM embeddings WHERE owner_kind = 'doc' AND owner_id = ?").run(docId);
  }
  const insertChunk = stmt(db, 
    `INSERT INTO chunks (document_id, ord, heading_path, text, line_from, line_to, is_code)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const insertFts = stmt(db, 'INSERT INTO chunks_fts (rowid, seg) VALUES (?, ?)');
  const ids = note.chunks.map((c, i) => {
    const { id } = insertChunk.get(docId, c.ord, JSON.stringify(c.headingPath), c.text, c.lineFrom, c.lineTo, c.isCode ? 1 : 0) as {
      id: number;
    };
    if (fts === 'now') insertFts.run(id, chunkSeg?.[i] ?? segmentForIndex(`${note.title} ${c.headingPath.join(' ')} ${c.text}`));
    return id;
  });
  const insertLink = stmt(db, 'INSERT INTO links (document_id, target, target_norm, line) VALUES (?, ?, ?, ?)');
  for (const l of note.links) insertLink.run(docId, l.target, normalizeLinkTarget(l.target), l.line);
  return ids;
}

/**
 * Full-text rows of chunks written with `fts: 'later'` (ids and segmented texts, in step). FTS5 moves
 * its pending rows to a new on-disk segment at every SAVEPOINT once it has any: written inside each
 * note's savepoint, a batch of notes made one segment per note, and merging them cost a third of the
 * full-text writes. Written after the batch's savepoints, they make one segment per batch.
 */
export function writeChunkFts(db: Db, chunkIds: number[], segs: string[]): void {
  const insertFts = stmt(db, 'INSERT INTO chunks_fts (rowid, seg) VALUES (?, ?)');
  chunkIds.forEach((id, i) => insertFts.run(id, segs[i]!));
}

/**
 * Writes one extractor's output for a document, replacing whatever extraction the document had
 * (a note carries one extraction at a time: the best one made for its current content).
 */
export function writeExtraction(
  db: Db,
  docId: number,
  extraction: Extraction,
  /** True right after writeParsedNote, which already cleared the document's derived rows. */
  cleared = false,
): { fciIds: number[]; mmIds: number[] } {
  if (!cleared) clearDerived(db, docId);
  const chunkIdByOrd = new Map<number, number>(
    (stmt(db, 'SELECT ord, id FROM chunks WHERE document_id = ?').all(docId) as { ord: number; id: number }[]).map((r) => [
      r.ord,
      r.id,
    ]),
  );
  const ex = extraction.extractor;

  const insertFci = stmt(db, 
    `INSERT INTO fcis (document_id, chunk_id, text, line_from, line_to, extractor, check_rouge, check_sim, check_passed)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const fciIds = extraction.fcis.map((f) => {
    const passed = f.checkPassed === undefined || f.checkPassed === null ? null : f.checkPassed ? 1 : 0;
    const { id } = insertFci.get(
      docId,
      chunkIdByOrd.get(f.chunkOrd) ?? null,
      f.text,
      f.lineFrom,
      f.lineTo,
      ex,
      f.checkRouge ?? null,
      f.checkSim ?? null,
      passed,
    ) as { id: number };
    return id;
  });

  const mmIds = writeMindMap(db, docId, extraction.mindMap, fciIds, ex);

  const entityIds = new Map<string, number>();
  const mention = stmt(db, 
    'INSERT INTO entity_mentions (entity_id, document_id, chunk_id, line_from, line_to, extractor) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const e of extraction.entities) {
    const id = ensureEntity(db, e.name, e.norm, e.type ?? null);
    entityIds.set(e.norm, id);
    mention.run(id, docId, chunkIdByOrd.get(e.chunkOrd) ?? null, e.lineFrom, e.lineTo, ex);
  }
  const insertTriple = stmt(db, 
    `INSERT INTO triples (document_id, chunk_id, subject_id, relation, object_id, line_from, line_to, extractor)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const t of extraction.triples) {
    const s = entityFor(db, t.subject, entityIds, mention, docId, chunkIdByOrd.get(t.chunkOrd) ?? null, t, ex);
    const o = entityFor(db, t.object, entityIds, mention, docId, chunkIdByOrd.get(t.chunkOrd) ?? null, t, ex);
    if (s === o) continue;
    insertTriple.run(docId, chunkIdByOrd.get(t.chunkOrd) ?? null, s, t.relation, o, t.lineFrom, t.lineTo, ex);
  }
  return { fciIds, mmIds };
}

/**
 * Removes a document and everything it contributed; shared entities stay while other notes mention them.
 * Its model replies are released (kept a while, so a note brought back finds them: kept-replies.ts) or,
 * where the user took the note out of the library (a folder removed, a scope that now leaves it out),
 * forgotten with it. Released too, given `vectorsOf`: that model's vectors of the note's texts
 * (released-vectors.ts).
 */
export function deleteDocument(db: Db, docId: number, replies: 'release' | 'forget', vectorsOf: string | null = null): void {
  if (replies === 'release') {
    releaseReplies(db, docId);
    if (vectorsOf) releaseNoteVectors(db, docId, vectorsOf);
  }
  clearDerived(db, docId);
  stmt(db, 'DELETE FROM documents WHERE id = ?').run(docId);
  // Its neighbours in the document layer and the pseudo-graph change with it.
  markGraphPending(db, [docId]);
}

/** Rebuilds a ParsedNote from the store (for passes that refine an indexed note without re-reading it). */
export function loadParsedNote(db: Db, docId: number): ParsedNote {
  const doc = getDocument(db, docId);
  if (!doc) throw new Error(`No document with id ${docId}`);
  const chunks = (
    stmt(db, 'SELECT ord, heading_path, text, line_from, line_to, is_code FROM chunks WHERE document_id = ? ORDER BY ord').all(docId) as {
      ord: number;
      heading_path: string;
      text: string;
      line_from: number;
      line_to: number;
      is_code: number;
    }[]
  ).map(
    (c): ParsedChunk => ({
      ord: c.ord,
      headingPath: JSON.parse(c.heading_path) as string[],
      text: c.text,
      lineFrom: c.line_from,
      lineTo: c.line_to,
      isCode: c.is_code === 1,
    }),
  );
  const links = stmt(db, 'SELECT target, line FROM links WHERE document_id = ?').all(docId) as { target: string; line: number }[];
  const fm = stmt(db, 'SELECT front_matter FROM documents WHERE id = ?').get(docId) as { front_matter: string };
  const frontMatter = JSON.parse(fm.front_matter) as Record<string, unknown>;
  const tags = Array.isArray(frontMatter.tags) ? frontMatter.tags.map(String) : [];
  // documents.lang is the note's language; a note's own `lang` is its script's, as parsing gives it.
  return { relPath: doc.rel_path, title: doc.title, lang: detectLang(chunks.map((c) => c.text).join('\n')), frontMatter, links, tags, chunks };
}

/** Lists documents whose graph neighbourhood must be rebuilt; written inside the note's transaction, so a killed run resumes. */
export function markGraphPending(db: Db, ids: number[]): void {
  const insert = stmt(db, 'INSERT OR IGNORE INTO graph_pending (document_id) VALUES (?)');
  for (const id of ids) insert.run(id);
}

export function graphPendingIds(db: Db): number[] {
  return stmt(db, 'SELECT document_id FROM graph_pending').pluck().all() as number[];
}

/** True when every indexed document waits for the graph step (an index whose graph was never built). */
export function everyDocumentPending(db: Db): boolean {
  return (
    stmt(db, "SELECT 1 FROM documents d WHERE d.status = 'indexed' AND NOT EXISTS (SELECT 1 FROM graph_pending p WHERE p.document_id = d.id) LIMIT 1").get() ===
    undefined
  );
}

export function clearGraphPending(db: Db): void {
  stmt(db, 'DELETE FROM graph_pending').run();
}

/**
 * Entities no note mentions any more (their last supporting note changed or went away). Only entities
 * that lost a mention or a triple since the last sweep can be such: triggers list them as they lose one
 * (migration 0006), so the sweep reads that list, not the whole entities table. Their vectors of
 * `keptModel` are released (released-vectors.ts), so a name that comes back is not embedded again; a
 * name belongs to no one note, so they go with age alone, not with a library folder.
 */
export function pruneOrphanEntities(db: Db, keptModel: string | null = null): number {
  return db.transaction(() => {
    const orphans = stmt(
      db,
      `SELECT e.id FROM entity_unsupported_pending p CROSS JOIN entities e ON e.id = p.entity_id
        WHERE NOT EXISTS (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id)
          AND NOT EXISTS (SELECT 1 FROM triples t WHERE t.subject_id = e.id OR t.object_id = e.id)`,
    )
      .pluck()
      .all() as number[];
    if (orphans.length && keptModel) releaseEntityVectors(db, orphans, keptModel);
    const { changes } = orphans.length ? stmt(db, 'DELETE FROM entities WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(orphans)) : { changes: 0 };
    stmt(db, 'DELETE FROM entity_unsupported_pending').run();
    return changes;
  })();
}

/**
 * Takes a note's derived rows away (two runs' rows mixed, rows pointing at another note) and clears its
 * content hash, so the next index run writes it whole again; the document row, and with it its id in past
 * answers, stays (loci check --repair).
 */
export function clearNoteForReindex(db: Db, docId: number): void {
  clearDerived(db, docId);
  stmt(db, 'DELETE FROM chunks WHERE document_id = ?').run(docId);
  stmt(db, 'DELETE FROM links WHERE document_id = ?').run(docId);
  stmt(db, "DELETE FROM embeddings WHERE owner_kind = 'doc' AND owner_id = ?").run(docId);
  stmt(db, 'UPDATE documents SET content_hash = NULL, mtime = NULL WHERE id = ?').run(docId);
  markGraphPending(db, [docId]);
}

function clearDerived(db: Db, docId: number): void {
  stmt(db, 'DELETE FROM triples WHERE document_id = ?').run(docId);
  stmt(db, 'DELETE FROM entity_mentions WHERE document_id = ?').run(docId);
  // Children before parents keeps the parent FK happy without relying on cascade order.
  stmt(db, 'DELETE FROM mm_nodes WHERE document_id = ? AND parent_id IS NOT NULL').run(docId);
  stmt(db, 'DELETE FROM mm_nodes WHERE document_id = ?').run(docId);
  stmt(db, 'DELETE FROM fcis WHERE document_id = ?').run(docId);
}

/** Writes the mind map depth-first (node before children, children in order); returns the ids in that order. */
function writeMindMap(db: Db, docId: number, root: MindMapNode, fciIds: number[], extractor: string): number[] {
  const ids: number[] = [];
  const insert = stmt(db, 
    `INSERT INTO mm_nodes (document_id, parent_id, kind, text, path_text, depth, ord, fci_id, line_from, line_to, extractor)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const walk = (node: MindMapNode, parentId: number | null, parentPath: string, depth: number, ord: number) => {
    const pathText = mindMapPathText(parentPath, node.text);
    const fciId = node.fciIndex !== undefined ? (fciIds[node.fciIndex] ?? null) : null;
    const { id } = insert.get(
      docId,
      parentId,
      node.kind,
      node.text,
      pathText,
      depth,
      ord,
      fciId,
      node.lineFrom ?? null,
      node.lineTo ?? null,
      extractor,
    ) as { id: number };
    ids.push(id);
    node.children.forEach((child, i) => walk(child, id, pathText, depth + 1, i));
  };
  walk(root, null, '', 0, 0);
  return ids;
}

function ensureEntity(db: Db, name: string, norm: string, type: string | null): number {
  const row = stmt(
    db,
    `INSERT INTO entities (name, norm, type) VALUES (?, ?, ?)
       ON CONFLICT (norm) DO UPDATE SET type = COALESCE(entities.type, excluded.type) RETURNING id`,
  ).get(name, norm, type) as { id: number };
  return row.id;
}

function entityFor(
  db: Db,
  name: string,
  known: Map<string, number>,
  mention: { run: (...args: unknown[]) => unknown },
  docId: number,
  chunkId: number | null,
  at: { lineFrom: number; lineTo: number },
  extractor: string,
): number {
  const norm = normalizeName(name);
  const existing = known.get(norm);
  if (existing !== undefined) return existing;
  const id = ensureEntity(db, name, norm, null);
  known.set(norm, id);
  // A triple's subject or object is itself a mention: it keeps the entity alive only while this note does.
  mention.run(id, docId, chunkId, at.lineFrom, at.lineTo, extractor);
  return id;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, val) => (typeof val === 'bigint' ? String(val) : val instanceof Date ? val.toISOString() : val));
  } catch {
    return '{}';
  }
}
