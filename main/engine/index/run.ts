// One index run, for a folder of notes or for documents given as text (benchmarks pool dataset
// paragraphs this way): the source lists what is new or changed, the note pipeline prepares and writes
// it, notes the source no longer has are removed, and the graph step follows.
import { resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import type { IndexReport } from '../api.js';
import { FAST_PIPELINE_VERSION, type SkippedFile } from '../types.js';
import type { NoteInput } from '../index-worker/prepare-note.js';
import { keptVectorsModel } from '../embed/static-embedder.js';
import { scanFolder, type ScannedFile } from '../ingest/scan.js';
import { deleteDocument, documentsUnder, findDocument, type DocumentRow } from '../store/documents.js';
import { indexCounts } from '../store/counts.js';
import { getSetting, setSetting } from '../store/settings.js';
import { forgetFastExtractions } from '../store/library.js';
import { addTime, phaseProgress } from '../jobs/progress.js';
import { updateGraph, type GraphBuildOptions } from '../graph/build.js';
import { getLogger } from '../log.js';
import { MIN_NOTES_FOR_WORKERS, NotePipeline } from './note-pipeline.js';
import { recordSkip, type NoteMeta } from './write-note.js';

export interface IndexerOptions extends GraphBuildOptions {
  /** Files larger than this are skipped (reason 'too-large'). */
  maxBytes?: number;
  /** The folder's scope (include/exclude globs): true when a path is left out. */
  excluded?: (relPath: string, isDir: boolean) => boolean;
  /** Told what the user should know about a run before it starts (it is no error), e.g. why unchanged notes are redone. */
  onNotice?: (message: string) => void;
}

export interface TextDocument {
  relPath: string;
  title?: string;
  content: string;
}

/** What a source hands the run: the notes to prepare, and what it knows of the rest. */
interface Listing {
  todo: { input: NoteInput; meta: NoteMeta; file: ScannedFile | null }[];
  /** Notes the index already holds as they are. */
  unchanged: number;
  /** Files the source skipped itself (the pipeline adds the notes it cannot index). */
  skipped: SkippedFile[];
  /** Indexed notes whose path is gone, by content hash: a new file with the same text is one of them moved. */
  vanished?: Map<string, DocumentRow[]>;
  /** After the notes are written: removes those the source no longer has; returns how many. */
  removeMissing(moved: ReadonlySet<number>): number;
}

/** Indexes a notes folder: only new or changed notes are processed; deleted notes take their rows with them. */
export async function indexFolder(db: Db, embedder: Embedder, rootArg: string, opts: IndexerOptions = {}): Promise<IndexReport> {
  const root = resolve(rootArg);
  await assertFolder(root);
  return run(db, embedder, root, opts, async (times) => {
    const started = performance.now();
    const scan = phaseProgress('scan', 1, opts.onProgress);
    const { files, skipped } = await scanFolder(root, { maxBytes: opts.maxBytes, signal: opts.signal, excluded: opts.excluded });
    scan.finish();
    addTime(times, 'scan', started);
    for (const s of skipped) recordSkip(db, root, s, null);
    const seen = new Set<string>([...files.map((f) => f.relPath), ...skipped.map((s) => s.relPath)]);
    // Notes whose stat changed; the rest are unchanged without being read.
    const knownRows = new Map(documentsUnder(db, root).map((d) => [d.rel_path, d]));
    let unchanged = 0;
    const todo: Listing['todo'] = [];
    for (const file of files) {
      const known = knownRows.get(file.relPath);
      if (known && known.status === 'indexed' && known.mtime === file.mtimeMs && known.size === file.size) unchanged++;
      // Read and hashed where it is prepared; a note whose bytes turn out unchanged is only touched.
      else todo.push({ input: { relPath: file.relPath, file: { absPath: file.absPath, root } }, meta: { hash: null, mtime: file.mtimeMs, size: file.size, known, isNew: !known }, file });
    }
    return {
      todo,
      unchanged,
      skipped: [...skipped],
      vanished: vanishedByHash(knownRows.values(), seen),
      removeMissing: (moved) => removeMissing(db, root, seen, keptVectorsModel(embedder), [...knownRows.values()].filter((d) => !moved.has(d.id)), opts.excluded),
    };
  });
}

/**
 * Indexes documents given as text under a synthetic root: the same run and provenance as files; documents
 * of that root not in `docs` are removed.
 */
export async function indexTexts(db: Db, embedder: Embedder, root: string, docs: TextDocument[], opts: IndexerOptions = {}): Promise<IndexReport> {
  return run(db, embedder, root, opts, async () => {
    let unchanged = 0;
    const todo: Listing['todo'] = [];
    for (const d of docs) {
      const hash = createHash('sha256').update(d.title ?? '').update('\0').update(d.content).digest('hex');
      const known = findDocument(db, root, d.relPath);
      if (known?.status === 'indexed' && known.content_hash === hash) unchanged++;
      else todo.push({ input: { relPath: d.relPath, content: d.content, title: d.title }, meta: { hash, mtime: null, size: Buffer.byteLength(d.content), isNew: !known }, file: null });
    }
    return { todo, unchanged, skipped: [], removeMissing: () => removeMissing(db, root, new Set(docs.map((d) => d.relPath)), keptVectorsModel(embedder)) };
  });
}

async function run(db: Db, embedder: Embedder, root: string, opts: IndexerOptions, list: (times: Record<string, number>) => Promise<Listing>): Promise<IndexReport> {
  const started = performance.now();
  const times = opts.phaseTimes ?? {};
  refreshOutdatedExtraction(db, opts.onNotice);
  const listing = await list(times);
  const { todo, skipped } = listing;
  const progress = phaseProgress('extract', listing.unchanged + todo.length, opts.onProgress);
  const pipeline = new NotePipeline(db, root, todo.length >= MIN_NOTES_FOR_WORKERS, embedder, times, skipped, listing.vanished);
  let removed: number;
  try {
    try {
      for (const [i, { input, meta, file }] of todo.entries()) {
        opts.signal?.throwIfAborted();
        progress.tick(listing.unchanged + i, input.relPath);
        await pipeline.add(input, meta, file);
      }
    } finally {
      // Also when stopped: notes already handed on are finished and written, each whole.
      await pipeline.drain();
    }
    progress.finish();
    removed = listing.removeMissing(pipeline.moved);
    await updateGraph(db, embedder, opts, pipeline.pool, pipeline.embedded);
  } finally {
    await pipeline.close();
  }
  return {
    root,
    counts: indexCounts(db),
    changed: pipeline.written,
    unchanged: listing.unchanged + pipeline.unchanged,
    moved: pipeline.moved.size,
    removed,
    skipped,
    readAs: pipeline.readAs,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Settings key: the FAST_PIPELINE_VERSION that wrote the index's fast-mode rows. */
const FAST_PIPELINE = 'fast_pipeline';

/**
 * A note's rows are only rewritten when its bytes change, so an improvement to fast-mode extraction
 * would never reach an index built before it: the first run after an upgrade extracts those notes again.
 */
function refreshOutdatedExtraction(db: Db, onNotice?: (message: string) => void): void {
  if (getSetting<number>(db, FAST_PIPELINE, 0) === FAST_PIPELINE_VERSION) return;
  const notes = db.transaction(() => {
    const n = forgetFastExtractions(db);
    setSetting(db, FAST_PIPELINE, FAST_PIPELINE_VERSION);
    return n;
  })();
  if (notes === 0) return;
  getLogger('engine').info({ notes, version: FAST_PIPELINE_VERSION }, 'fast-mode extraction changed: notes are extracted again');
  // Without this, a user who changed nothing sees a whole library re-extracted and cannot tell why.
  onNotice?.(
    `This version of Loci extracts more from notes in fast mode than the one that built the index: ` +
      `${notes} unchanged ${notes === 1 ? 'note is' : 'notes are'} extracted again, once. Notes a model extracted keep their rows.`,
  );
}

/** Indexed notes of the folder whose path the scan no longer finds, by their content hash. */
function vanishedByHash(known: Iterable<DocumentRow>, present: Set<string>): Map<string, DocumentRow[]> {
  const out = new Map<string, DocumentRow[]>();
  for (const d of known) {
    if (d.status !== 'indexed' || !d.content_hash || present.has(d.rel_path)) continue;
    out.set(d.content_hash, [...(out.get(d.content_hash) ?? []), d]);
  }
  return out;
}

/**
 * `known`: the root's documents as read before this run wrote any (those it wrote are present). A note
 * gone from disk may come back and keeps its model replies a while; one the folder's scope now leaves
 * out (`excluded`) was taken out of the library, and they go with it.
 */
function removeMissing(
  db: Db,
  root: string,
  present: Set<string>,
  /** The model whose vectors a note that may come back releases (keptVectorsModel). */
  vectorsOf: string | null,
  known = documentsUnder(db, root),
  excluded?: (relPath: string, isDir: boolean) => boolean,
): number {
  const gone = known.filter((d) => !present.has(d.rel_path));
  db.transaction(() => {
    // deleteDocument queues each note's graph update itself.
    for (const d of gone) {
      if (excluded?.(d.rel_path, false)) deleteDocument(db, d.id, 'forget');
      else deleteDocument(db, d.id, 'release', vectorsOf);
    }
  })();
  return gone.length;
}

async function assertFolder(root: string): Promise<void> {
  const info = await stat(root).catch(() => null);
  if (!info) throw new Error(`No folder at ${root}.`);
  if (!info.isDirectory()) throw new Error(`${root} is a file; point Loci at the folder that holds your notes.`);
}
