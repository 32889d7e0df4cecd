import { resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { Db } from './store/db.js';
import type { Embedder } from './embed/embedder.js';
import type { IndexOptions, IndexReport } from './api.js';
import type { ParsedNote, SkippedFile } from './types.js';
import { scanFolder, type ScannedFile } from './ingest/scan.js';
import { readNote } from './ingest/read.js';
import { parseNote } from './ingest/parse.js';
import { extractFast } from './extract/fast/index.js';
import {
  deleteDocument,
  documentsUnder,
  findDocument,
  markGraphPending,
  pruneOrphanEntities,
  upsertDocument,
  writeExtraction,
  writeParsedNote,
} from './store/documents.js';
import { indexCounts } from './store/counts.js';
import { getSetting, INDEX_GENERATION, setSetting } from './store/settings.js';
import { embedMissing } from './embed/embed-missing.js';
import { loadEmbeddings } from './store/embeddings.js';
import { VectorMatrix } from './embed/vector-matrix.js';
import { updateDocEdges } from './graph/doc-edges.js';
import { DEFAULT_FUSION, updateFusion, type FusionThresholds } from './graph/fusion.js';
import { phaseProgress } from './jobs/progress.js';
import { createHash } from 'node:crypto';

export interface IndexerOptions extends IndexOptions {
  /** Files larger than this are skipped (reason 'too-large'). */
  maxBytes?: number;
  fusion?: FusionThresholds;
  docNeighbours?: number;
  /** The folder's scope (include/exclude globs): true when a path is left out. */
  excluded?: (relPath: string, isDir: boolean) => boolean;
}

/** Settings key: the embedder the graph was last built with; another one means rebuilding it whole. */
const GRAPH_MODEL = 'graph_model';

/** True when the index holds documents whose vectors (and graph) were made by another embedder. */
export function needsReembedding(db: Db, embedder: Embedder): boolean {
  const hasDocs = db.prepare("SELECT 1 FROM documents WHERE status = 'indexed' LIMIT 1").get() !== undefined;
  return hasDocs && getSetting<string | null>(db, GRAPH_MODEL, null) !== embedder.id;
}

/** Indexes a notes folder: only new or changed notes are processed; deleted notes take their rows with them. */
export async function indexFolder(db: Db, embedder: Embedder, rootArg: string, opts: IndexerOptions = {}): Promise<IndexReport> {
  const started = performance.now();
  const root = resolve(rootArg);
  await assertFolder(root);
  const scan = phaseProgress('scan', 1, opts.onProgress);
  const { files, skipped: scanSkipped } = await scanFolder(root, { maxBytes: opts.maxBytes, signal: opts.signal, excluded: opts.excluded });
  scan.finish();

  const skipped: SkippedFile[] = [...scanSkipped];
  const seen = new Set<string>([...files.map((f) => f.relPath), ...scanSkipped.map((s) => s.relPath)]);
  let changed = 0;
  let unchanged = 0;
  const progress = phaseProgress('extract', files.length, opts.onProgress);

  for (const s of scanSkipped) recordSkip(db, root, s, null);

  for (const [i, file] of files.entries()) {
    opts.signal?.throwIfAborted();
    progress.tick(i, file.relPath);
    const known = findDocument(db, root, file.relPath);
    if (known && known.status === 'indexed' && known.mtime === file.mtimeMs && known.size === file.size) {
      unchanged++;
      continue;
    }
    const read = await readNote(file.absPath, { root });
    if (!read.ok) {
      const skip = { relPath: file.relPath, reason: read.reason, detail: read.detail };
      skipped.push(skip);
      recordSkip(db, root, skip, file);
      continue;
    }
    if (known && known.status === 'indexed' && known.content_hash === read.hash) {
      db.prepare('UPDATE documents SET mtime = ?, size = ? WHERE id = ?').run(file.mtimeMs, file.size, known.id);
      unchanged++;
      continue;
    }
    try {
      indexNote(db, root, parseNote(file.relPath, read.content), { hash: read.hash, mtime: file.mtimeMs, size: file.size });
      changed++;
    } catch (err) {
      // A note the parser or extractor cannot handle is reported, never allowed to stop the run.
      const skip = { relPath: file.relPath, reason: 'unsupported' as const, detail: `could not be indexed: ${errorText(err)}` };
      skipped.push(skip);
      recordSkip(db, root, skip, file);
    }
  }
  progress.finish();

  const removed = removeMissing(db, root, seen);
  await updateGraph(db, embedder, opts);
  return {
    root,
    counts: indexCounts(db),
    changed,
    unchanged,
    removed,
    skipped,
    seconds: (performance.now() - started) / 1000,
  };
}

export interface TextDocument {
  relPath: string;
  title?: string;
  content: string;
}

/**
 * Indexes documents given as text (benchmarks pool dataset paragraphs this way) under a synthetic root.
 * Same pipeline and provenance as files; documents of that root not in `docs` are removed.
 */
export async function indexTexts(db: Db, embedder: Embedder, root: string, docs: TextDocument[], opts: IndexerOptions = {}): Promise<IndexReport> {
  const started = performance.now();
  const progress = phaseProgress('extract', docs.length, opts.onProgress);
  let changed = 0;
  let unchanged = 0;
  for (const [i, d] of docs.entries()) {
    opts.signal?.throwIfAborted();
    progress.tick(i, d.relPath);
    const hash = createHash('sha256').update(d.title ?? '').update('\0').update(d.content).digest('hex');
    const known = findDocument(db, root, d.relPath);
    if (known?.status === 'indexed' && known.content_hash === hash) {
      unchanged++;
      continue;
    }
    const note = parseNote(d.relPath, d.content);
    if (d.title) note.title = d.title;
    indexNote(db, root, note, { hash, mtime: null, size: Buffer.byteLength(d.content) });
    changed++;
  }
  progress.finish();
  const removed = removeMissing(db, root, new Set(docs.map((d) => d.relPath)));
  await updateGraph(db, embedder, opts);
  return { root, counts: indexCounts(db), changed, unchanged, removed, skipped: [], seconds: (performance.now() - started) / 1000 };
}

/** One note, one transaction: the note's rows are replaced whole or not at all. */
function indexNote(db: Db, root: string, note: ParsedNote, meta: { hash: string; mtime: number | null; size: number }): number {
  const extraction = extractFast(note);
  return db.transaction(() => {
    const id = upsertDocument(
      db,
      { root, relPath: note.relPath, hash: meta.hash, mtime: meta.mtime, size: meta.size },
      { status: 'indexed', title: note.title, lang: note.lang, frontMatter: note.frontMatter },
    );
    writeParsedNote(db, id, note);
    writeExtraction(db, id, extraction);
    markGraphPending(db, [id]);
    return id;
  })();
}

function recordSkip(db: Db, root: string, skip: SkippedFile, file: ScannedFile | null): void {
  db.transaction(() => {
    const known = findDocument(db, root, skip.relPath);
    if (known) deleteDocument(db, known.id);
    upsertDocument(
      db,
      { root, relPath: skip.relPath, hash: null, mtime: file?.mtimeMs ?? null, size: file?.size ?? null },
      { status: 'skipped', error: `${skip.reason}: ${skip.detail}` },
    );
  })();
}

function removeMissing(db: Db, root: string, present: Set<string>): number {
  const gone = documentsUnder(db, root).filter((d) => !present.has(d.rel_path));
  db.transaction(() => {
    for (const d of gone) deleteDocument(db, d.id);
    if (gone.length) markGraphPending(db, gone.map((d) => d.id));
  })();
  return gone.length;
}

/**
 * Work that spans documents: vectors for rows that lack them, the document layer and the pseudo-graph
 * for documents listed in graph_pending. Any pass that rewrites documents' rows (fast or model) ends here.
 */
export async function updateGraph(db: Db, embedder: Embedder, opts: IndexerOptions): Promise<void> {
  const pruned = pruneOrphanEntities(db);
  const embedProgress = phaseProgress('embed', 1, opts.onProgress);
  const embedded = await embedMissing(db, embedder, (p) => embedProgress.tick(p.done / Math.max(1, p.total)), opts.signal);
  embedProgress.finish();

  const pending = (db.prepare('SELECT document_id FROM graph_pending').pluck().all() as number[]);
  const sameModel = getSetting<string | null>(db, GRAPH_MODEL, null) === embedder.id;
  if (pending.length === 0 && embedded === 0 && pruned === 0 && sameModel) return;
  const graph = phaseProgress('graph', 2, opts.onProgress);
  const docVectors = loadEmbeddings(db, 'doc', embedder.id);
  const docs = new VectorMatrix(embedder.dim, docVectors);
  const changed = sameModel ? new Set(pending) : 'all';
  updateDocEdges(db, docs, changed, opts.docNeighbours);
  graph.tick(1);
  updateFusion(db, embedder.id, changed, opts.fusion ?? DEFAULT_FUSION);
  db.prepare('DELETE FROM graph_pending').run();
  setSetting(db, GRAPH_MODEL, embedder.id);
  setSetting(db, INDEX_GENERATION, getSetting(db, INDEX_GENERATION, 0) + 1);
  graph.finish();
  opts.onProgress?.({ phase: 'done', done: 1, total: 1, etaSeconds: 0 });
}



async function assertFolder(root: string): Promise<void> {
  const info = await stat(root).catch(() => null);
  if (!info) throw new Error(`No folder at ${root}.`);
  if (!info.isDirectory()) throw new Error(`${root} is a file; point Loci at the folder that holds your notes.`);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
