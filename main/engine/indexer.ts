import { resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { Db } from './store/db.js';
import type { Embedder } from './embed/embedder.js';
import type { IndexOptions, IndexReport } from './api.js';
import { FAST_PIPELINE_VERSION, UNJUDGED_LANGUAGE, type ReadAsFile, type SkippedFile } from './types.js';
import { prepareNotes, startReading, type NoteInput, type PreparedNote, type PrepareResult, type PrepareTask } from './index-worker/prepare-note.js';
import type { ReadResult } from './ingest/read.js';
import { keptVectorsModel, STATIC_EMBEDDER_ID } from './embed/static-embedder.js';
import { releaseVectors, textsOf } from './store/released-vectors.js';
import { openNotePool, workerCount, type NotePool } from './index-worker/pool.js';
import { scanFolder, type ScannedFile } from './ingest/scan.js';
import {
  clearGraphPending,
  deleteDocument,
  documentsUnder,
  everyDocumentPending,
  findDocument,
  graphPendingIds,
  hasIndexedDocuments,
  moveDocument,
  touchDocument,
  useBulkWriteCache,
  type DocumentRow,
  markGraphPending,
  pruneOrphanEntities,
  upsertDocument,
  writeChunkFts,
  writeExtraction,
  writeParsedNote,
} from './store/documents.js';
import { indexCounts } from './store/counts.js';
import { getSetting, INDEX_GENERATION, setSetting } from './store/settings.js';
import { embedMissing, KINDS_SEARCH_READS, type EmbedMissingOptions, type EmbedProgress } from './embed/embed-missing.js';
import { judgeNoteLanguages } from './ingest/note-language.js';
import { noteVectorsByText, restoreNoteVectors, writeEmbeddings } from './store/embeddings.js';
import { VectorMatrix } from './embed/vector-matrix.js';
import { docMatrix, updateDocEdges } from './graph/doc-edges.js';
import { DEFAULT_FUSION, updateFusion, type FusionThresholds } from './graph/fusion.js';
import { phaseProgress } from './jobs/progress.js';
import { createHash, randomUUID } from 'node:crypto';
import { forgetFastExtractions } from './store/library.js';
import { getLogger } from './log.js';

export interface IndexerOptions extends IndexOptions {
  /** Files larger than this are skipped (reason 'too-large'). */
  maxBytes?: number;
  fusion?: FusionThresholds;
  docNeighbours?: number;
  /** Filled with seconds of work per step (parse, extract, write, embed, graph…), summed over threads. */
  phaseTimes?: Record<string, number>;
  /** The folder's scope (include/exclude globs): true when a path is left out. */
  excluded?: (relPath: string, isDir: boolean) => boolean;
  /** Told what the user should know about a run before it starts (it is no error), e.g. why unchanged notes are redone. */
  onNotice?: (message: string) => void;
  /** What loads the embedder (its spec), kept with the graph built with it: see graphEmbedder. */
  embedderSpec?: string;
  /**
   * A switch of embedder is under way and rebuilds the whole graph when it is done. Where the graph was
   * built with another embedder than the one answering (after the swap), the graph step embeds only the
   * notes written since and leaves them marked for that rebuild, instead of doing the switch's hours of
   * work itself; before the swap it runs as usual, for the embedder still answering.
   */
  graphRebuiltLater?: boolean;
  /**
   * Embeds only what questions read, leaving PG-RAG's fact paths (most of a real embedder's work) and so
   * its pseudo-graph without them: for a bench of the other methods. The graph is not recorded as built
   * with this embedder, so the next run without this option embeds the fact paths and rebuilds it whole.
   */
  factPathsLater?: boolean;
}

/** Settings key: the embedder the graph was last built with; another one means rebuilding it whole. */
const GRAPH_MODEL = 'graph_model';
/** Settings key: a random stamp written by each graph step (see updateFusion's kept nodes). */
const FUSION_STAMP = 'fusion_stamp';

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

/** True when the index holds documents whose vectors (and graph) were made by another embedder. */
export function needsReembedding(db: Db, embedder: Embedder): boolean {
  return hasIndexedDocuments(db) && getSetting<string | null>(db, GRAPH_MODEL, null) !== embedder.id;
}

/** Settings key: the spec (what loads it) of the embedder the graph was last built with; the graph step knows only its id. */
const GRAPH_EMBEDDER_SPEC = 'graph_embedder_spec';

/** Records what loads `embedder`, when the graph is built with it: a later start can load it again. */
export function rememberGraphEmbedder(db: Db, embedder: Embedder, spec: string): void {
  if (getSetting<string | null>(db, GRAPH_MODEL, null) === embedder.id && getSetting<string | null>(db, GRAPH_EMBEDDER_SPEC, null) !== spec) {
    setSetting(db, GRAPH_EMBEDDER_SPEC, spec);
  }
}

/** What loads the embedder the graph was last built with, and the id it must have; null when unknown. */
export function graphEmbedder(db: Db): { spec: string; id: string } | null {
  const spec = getSetting<string | null>(db, GRAPH_EMBEDDER_SPEC, null);
  const id = getSetting<string | null>(db, GRAPH_MODEL, null);
  return spec && id ? { spec, id } : null;
}

/** Below this many notes to prepare, starting worker threads costs more than it saves. */
const MIN_NOTES_FOR_WORKERS = 48;
/** Notes per worker task and per write transaction (each note its own savepoint inside it). */
const BATCH_NOTES = 8;
/** Batches this thread may run ahead by, preparing them itself, while a worker still holds the oldest. */
const LOOK_AHEAD_BATCHES = 12;

/** Indexes a notes folder: only new or changed notes are processed; deleted notes take their rows with them. */
export async function indexFolder(db: Db, embedder: Embedder, rootArg: string, opts: IndexerOptions = {}): Promise<IndexReport> {
  const started = performance.now();
  const times = opts.phaseTimes ?? {};
  const root = resolve(rootArg);
  await assertFolder(root);
  refreshOutdatedExtraction(db, opts.onNotice);
  const scan = phaseProgress('scan', 1, opts.onProgress);
  const { files, skipped: scanSkipped } = await scanFolder(root, { maxBytes: opts.maxBytes, signal: opts.signal, excluded: opts.excluded });
  scan.finish();
  addTime(times, 'scan', started);

  const skipped: SkippedFile[] = [...scanSkipped];
  const seen = new Set<string>([...files.map((f) => f.relPath), ...scanSkipped.map((s) => s.relPath)]);
  let unchanged = 0;
  const progress = phaseProgress('extract', files.length, opts.onProgress);

  for (const s of scanSkipped) recordSkip(db, root, s, null);

  // Notes whose stat changed; the rest are unchanged without being read.
  const knownRows = new Map(documentsUnder(db, root).map((d) => [d.rel_path, d]));
  const candidates: { file: ScannedFile; known: DocumentRow | undefined }[] = [];
  for (const file of files) {
    const known = knownRows.get(file.relPath);
    if (known && known.status === 'indexed' && known.mtime === file.mtimeMs && known.size === file.size) unchanged++;
    else candidates.push({ file, known });
  }

  const pipeline = new NotePipeline(db, root, candidates.length >= MIN_NOTES_FOR_WORKERS, embedder, times, skipped, vanishedByHash(knownRows.values(), seen));
  let removed: number;
  try {
    try {
      for (const [i, { file, known }] of candidates.entries()) {
        opts.signal?.throwIfAborted();
        progress.tick(unchanged + i, file.relPath);
        // Read and hashed where it is prepared; a note whose bytes turn out unchanged is only touched.
        const meta = { hash: null, mtime: file.mtimeMs, size: file.size, known, isNew: !known };
        await pipeline.add({ relPath: file.relPath, file: { absPath: file.absPath, root } }, meta, file);
      }
    } finally {
      // Also when stopped: notes already handed on are finished and written, each whole.
      await pipeline.drain();
    }
    progress.finish();

    removed = removeMissing(db, root, seen, keptVectorsModel(embedder), [...knownRows.values()].filter((d) => !pipeline.moved.has(d.id)), opts.excluded);
    await updateGraph(db, embedder, opts, pipeline.pool, pipeline.embedded);
  } finally {
    await pipeline.close();
  }
  return {
    root,
    counts: indexCounts(db),
    changed: pipeline.written,
    unchanged: unchanged + pipeline.unchanged,
    moved: pipeline.moved.size,
    removed,
    skipped,
    readAs: pipeline.readAs,
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
  const times = opts.phaseTimes ?? {};
  const progress = phaseProgress('extract', docs.length, opts.onProgress);
  refreshOutdatedExtraction(db, opts.onNotice);
  let unchanged = 0;
  const todo: { d: TextDocument; hash: string; isNew: boolean }[] = [];
  for (const d of docs) {
    const hash = createHash('sha256').update(d.title ?? '').update('\0').update(d.content).digest('hex');
    const known = findDocument(db, root, d.relPath);
    if (known?.status === 'indexed' && known.content_hash === hash) unchanged++;
    else todo.push({ d, hash, isNew: !known });
  }
  const skipped: SkippedFile[] = [];
  const pipeline = new NotePipeline(db, root, todo.length >= MIN_NOTES_FOR_WORKERS, embedder, times, skipped);
  let removed: number;
  try {
    try {
      for (const [i, { d, hash, isNew }] of todo.entries()) {
        opts.signal?.throwIfAborted();
        progress.tick(unchanged + i, d.relPath);
        await pipeline.add({ relPath: d.relPath, content: d.content, title: d.title }, { hash, mtime: null, size: Buffer.byteLength(d.content), isNew }, null);
      }
    } finally {
      await pipeline.drain();
    }
    progress.finish();
    removed = removeMissing(db, root, new Set(docs.map((d) => d.relPath)), keptVectorsModel(embedder));
    await updateGraph(db, embedder, opts, pipeline.pool, pipeline.embedded);
  } finally {
    await pipeline.close();
  }
  return { root, counts: indexCounts(db), changed: pipeline.written, unchanged, moved: 0, removed, skipped, readAs: pipeline.readAs, seconds: (performance.now() - started) / 1000 };
}

interface NoteMeta {
  /** The content's hash; null when the note is read where it is prepared (the hash comes back with it). */
  hash: string | null;
  mtime: number | null;
  size: number;
  /** The note's row before this run, if any: unchanged bytes then only touch it. */
  known?: DocumentRow;
  /** No row for the note existed when the run looked: its rows are written without deleting first. */
  isNew?: boolean;
}

interface Pending {
  inputs: NoteInput[];
  metas: NoteMeta[];
  files: (ScannedFile | null)[];
}

/**
 * Notes flow in batches: prepared (parsed, extracted, segmented) in worker threads — or in this thread
 * for a handful of notes — and written here, by the one connection that writes, in submission order (so
 * ids, and with them every result, are the same as one note at a time). Each batch is one transaction and
 * each note a savepoint inside it: a note that fails to write rolls back alone, a killed run keeps every
 * committed batch whole.
 */
class NotePipeline {
  written = 0;
  /** Documents written with the vectors of all their rows. */
  readonly embedded = new Set<number>();
  /** Notes read here whose bytes were what the index already held. */
  unchanged = 0;
  private batch: Pending = { inputs: [], metas: [], files: [] };
  /** Batches handed on, oldest first; `results` is null while no thread has started preparing it. */
  private readonly inFlight: Flight[] = [];
  readonly pool: NotePool | null;
  private readonly maxInFlight: number;
  /**
   * Batches handed on at most while the oldest is still in a worker and this thread has prepared every
   * note no worker has started: until then this thread takes further notes rather than wait. A worker
   * spends its first half second loading (the tagger, the embedder's table, in development the
   * TypeScript), and this thread used to sit idle through it with one batch taken.
   */
  private readonly maxAhead: number;
  /** Batches the pool holds at most (started, not yet back); later ones wait here, free to be taken. */
  private readonly poolDepth: number;
  private dispatched = 0;
  private readonly staticEmbedder: string | null;
  /** The model whose vectors a rewritten note releases for the texts it no longer holds. */
  private readonly vectorsOf: string | null;
  private readonly languages = new Set<string>();
  /** Notes written this run that were read in another encoding than UTF-8 (or with stray bytes). */
  readonly readAs: ReadAsFile[] = [];
  /** Documents found at a new path this run, with the same text: moved, their rows kept. */
  readonly moved = new Set<number>();

  constructor(
    private readonly db: Db,
    private readonly root: string,
    useWorkers: boolean,
    embedder: Embedder,
    private readonly times: Record<string, number>,
    private readonly skipped: SkippedFile[],
    /** Indexed notes whose path is gone, by content hash: a new file with the same text (and title) is one of them moved. */
    private readonly vanished = new Map<string, DocumentRow[]>(),
  ) {
    // The built-in embedder is pure computation on the note's words: its vectors are made with them.
    this.staticEmbedder = embedder.id === STATIC_EMBEDDER_ID ? embedder.id : null;
    this.vectorsOf = keptVectorsModel(embedder);
    const threads = useWorkers ? workerCount() : 0;
    if (useWorkers) useBulkWriteCache(db);
    this.pool = threads > 0 ? openNotePool(threads) : null;
    // Each worker holds two batches (one running, the next handed over); one more waits here, for this
    // thread to prepare when it would otherwise wait idle for the oldest batch (see writeOldest).
    this.poolDepth = threads * 2;
    this.maxInFlight = threads > 0 ? this.poolDepth + 1 : 2;
    this.maxAhead = threads > 0 ? this.maxInFlight + LOOK_AHEAD_BATCHES : this.maxInFlight;
  }

  async add(input: NoteInput, meta: NoteMeta, file: ScannedFile | null): Promise<void> {
    this.batch.inputs.push(input);
    this.batch.metas.push(meta);
    this.batch.files.push(file);
    // Batches grow 1, 2, 4… up to BATCH_NOTES: the first notes are searchable at once, the rest cheap.
    if (this.batch.inputs.length < Math.min(BATCH_NOTES, 2 ** this.dispatched)) return;
    this.dispatch();
    while (this.inFlight.length >= this.maxInFlight) {
      const mayRunAhead = this.inFlight.length < this.maxAhead;
      // A worker with room and no batch to take would wait for this thread's next write: hand on more.
      if (mayRunAhead && this.poolHasRoom()) break;
      // Not written: the oldest batch is still being prepared and this thread had nothing to take.
      if (!(await this.writeOldest(mayRunAhead))) break;
    }
  }

  /** The pool holds fewer batches than it can (feedPool gives it every batch not started, so none is left). */
  private poolHasRoom(): boolean {
    return this.pool !== null && this.inFlight.filter((f) => f.inPool && !f.settled).length < this.poolDepth;
  }

  /** Prepares and writes every note handed on so far. */
  async drain(): Promise<void> {
    this.dispatch();
    while (this.inFlight.length) await this.writeOldest(false);
  }

  async close(): Promise<void> {
    if (!this.pool) return;
    await this.pool.close();
    // The notes were prepared in workers, so this thread has not yet built the parser, the English
    // tagger or jieba (a few hundred ms the first time): build them once the run is over, before the
    // watcher's first edit needs them rather than during it. Unref'd, so it never keeps a CLI alive.
    const languages = [...this.languages];
    setTimeout(() => void prepareNotes({ inputs: [{ relPath: 'warm-up.md', content: WARM_UP[languages.includes('zh') ? 'zh' : 'en'] }], staticEmbedder: this.staticEmbedder }), 0).unref();
  }

  private dispatch(): void {
    if (!this.batch.inputs.length) return;
    const pending = this.batch;
    this.batch = { inputs: [], metas: [], files: [] };
    this.inFlight.push({ pending, results: null, settled: false, inPool: false, taken: [] });
    this.dispatched++;
    this.feedPool();
  }

  /** Starts the oldest waiting batches in the pool, up to its depth. */
  private feedPool(): void {
    let inPool = this.inFlight.filter((f) => f.inPool && !f.settled).length;
    for (const f of this.inFlight) {
      if (inPool >= this.poolDepth) break;
      if (f.results) continue;
      this.start(f, this.pool);
      inPool++;
    }
  }

  /** Starts the batch's notes not yet taken by this thread: in the pool, or here. */
  private start(f: Flight, pool: NotePool | null): Promise<PrepareResult[]> {
    const rest = f.pending.inputs.slice(f.taken.length);
    const task = { inputs: rest, staticEmbedder: this.staticEmbedder };
    const inPool = pool !== null && rest.length > 0;
    const restResults = rest.length === 0 ? Promise.resolve([]) : inPool ? pool.prepare(task) : inThisThread(task);
    const results = Promise.all([...f.taken, restResults]).then((parts) => parts.flat());
    f.results = results;
    f.inPool = inPool;
    const settle = () => {
      f.settled = true;
      // A worker that finished is given the next batch now, not when this thread next writes.
      if (inPool) this.feedPool();
    };
    results.then(settle, settle);
    return results;
  }

  /**
   * Writes the oldest batch once it is prepared, preparing notes of later batches meanwhile. With
   * `mayReturn`, returns false instead of waiting when there is nothing left to prepare here or a worker
   * has room for a batch, so the caller can hand on more notes; true when the batch was written.
   */
  private async writeOldest(mayReturn: boolean): Promise<boolean> {
    const next = this.inFlight[0];
    if (!next) return false;
    // While the oldest batch is still in a worker, this thread would only wait: it prepares notes of a
    // later batch no worker has started instead, one note per turn of the event loop (calls keep being
    // answered), and looks again after each. With one worker on two cores the worker bounded folders of
    // long notes while this thread sat idle half the time; where writing is the bottleneck the oldest
    // batch is usually ready, so this thread rarely takes a note (and never a whole batch at once, which
    // left the worker waiting for its next one).
    while (this.pool && next.results && !next.settled) {
      if (mayReturn && this.poolHasRoom()) return false;
      const waiting = this.inFlight.find((f) => !f.results);
      const input = waiting?.pending.inputs[waiting.taken.length];
      if (!waiting || !input) {
        if (mayReturn) return false;
        break;
      }
      const t = performance.now();
      // The batch's files are read ahead, as a worker does: this thread would otherwise wait for each
      // read (two realpaths, then the file) with nothing to do.
      waiting.reads ??= waiting.pending.inputs.map(startReading);
      const one = inThisThread({ inputs: [input], staticEmbedder: this.staticEmbedder }, [waiting.reads[waiting.taken.length]]);
      // Taken before the await: a batch started in the pool meanwhile leaves this note out.
      waiting.taken.push(one);
      await one;
      if (!waiting.results && waiting.taken.length === waiting.pending.inputs.length) this.start(waiting, null);
      // Wall time, yields included: what `loci bench-index` shows as the engine thread's share.
      addTime(this.times, 'prepare on engine thread', t);
    }
    let results: PrepareResult[];
    try {
      results = await (next.results ?? this.start(next, this.pool));
    } finally {
      // Off the queue even when its preparation failed (a worker died): the batches behind it are still
      // written, and the drain at the end of the run does not meet the same failure again.
      this.inFlight.shift();
      this.feedPool();
    }
    // A turn of the event loop before each write: a question or a progress event waiting since the last
    // batch goes first (results already in hand would otherwise be written back to back).
    await new Promise<void>((r) => setImmediate(r));
    const t = performance.now();
    const { db, root } = this;
    const fullText: { id: number; chunkIds: number[]; segs: string[]; relPath: string; file: ScannedFile | null }[] = [];
    db.transaction(() => {
      results.forEach((r, i) => {
        const meta = next.pending.metas[i]!;
        const file = next.pending.files[i] ?? null;
        const relPath = next.pending.inputs[i]!.relPath;
        if ('skip' in r) {
          const skip = { relPath, reason: r.skip.reason, detail: r.skip.detail };
          this.skipped.push(skip);
          recordSkip(db, root, skip, file);
          return;
        }
        const hash = r.ok ? (r.prepared.hash ?? meta.hash) : meta.hash;
        const known = meta.known;
        const movedFrom = r.ok && !known && file && hash ? this.takeVanished(hash, r.prepared.note.title) : undefined;
        if (movedFrom && file) {
          moveDocument(db, movedFrom.id, relPath, file.mtimeMs, file.size);
          this.moved.add(movedFrom.id);
          return;
        }
        if (r.ok && known && known.status === 'indexed' && known.content_hash === hash && file) {
          touchDocument(db, known.id, file.mtimeMs, file.size);
          this.unchanged++;
          return;
        }
        if (r.ok) {
          this.languages.add(r.prepared.note.lang);
          this.times.read = (this.times.read ?? 0) + r.prepared.ms.read / 1000;
          this.times.parse = (this.times.parse ?? 0) + r.prepared.ms.parse / 1000;
          this.times.extract = (this.times.extract ?? 0) + r.prepared.ms.extract / 1000;
          this.times.embed = (this.times.embed ?? 0) + r.prepared.ms.embed / 1000;
        }
        try {
          if (!r.ok) throw new Error('error' in r ? r.error : 'unreadable');
          const { id, chunkIds } = db.transaction(() => writeNote(db, root, r.prepared, { ...meta, hash }, this.vectorsOf))();
          fullText.push({ id, chunkIds, segs: r.prepared.chunkSeg, relPath, file });
          if (r.prepared.vectors) this.embedded.add(id);
          if (r.prepared.readAs) this.readAs.push({ relPath, ...r.prepared.readAs });
          this.written++;
        } catch (err) {
          this.skipNote(relPath, err, file);
        }
      });
      // After every savepoint of the batch (see writeChunkFts). One statement failing leaves the others
      // in place; the note it belongs to is then taken out whole, as if its savepoint had failed.
      for (const n of fullText) {
        try {
          writeChunkFts(db, n.chunkIds, n.segs);
        } catch (err) {
          deleteDocument(db, n.id, 'release');
          this.embedded.delete(n.id);
          this.written--;
          this.skipNote(n.relPath, err, n.file);
        }
      }
    })();
    addTime(this.times, 'write', t);
    return true;
  }

  /**
   * The vanished note this new file is, when it has the same text and the same title: a move within the
   * folder keeps the note's id, so its model pass, vectors and the citations of past answers stay. A
   * rename that changes the title (one taken from the file name) is indexed as a new note.
   */
  private takeVanished(hash: string, title: string): DocumentRow | undefined {
    const rows = this.vanished.get(hash);
    const at = rows?.findIndex((d) => d.title === title) ?? -1;
    return at < 0 ? undefined : rows!.splice(at, 1)[0];
  }

  /** A note the parser, extractor or writer cannot handle is reported, never allowed to stop the run. */
  private skipNote(relPath: string, err: unknown, file: ScannedFile | null): void {
    const skip = { relPath, reason: 'unsupported' as const, detail: `could not be indexed: ${errorText(err)}` };
    this.skipped.push(skip);
    recordSkip(this.db, this.root, skip, file);
  }
}

/** Notes that make this thread build what preparing a note of that language needs. */
const WARM_UP = {
  en: '# Warm-up\n\nThe engine reads one English sentence about Ada Lovelace in London.\n',
  zh: '# Warm-up\n\nThe engine reads one English sentence.\n\n北京市政府今天发布了新的交通计划。\n',
};

interface Flight {
  pending: Pending;
  results: Promise<PrepareResult[]> | null;
  /** The results are in (or the preparation failed). */
  settled: boolean;
  /** Its remaining notes went to a worker. */
  inPool: boolean;
  /** Its first notes, taken by this thread while it waited for an older batch (in order). */
  taken: Promise<PrepareResult[]>[];
  /** Its files, read ahead once this thread starts taking its notes. */
  reads?: (Promise<ReadResult> | undefined)[];
}

/** Notes are prepared here one per turn of the event loop, so calls keep being answered. */
async function inThisThread(task: PrepareTask, reads = task.inputs.map(startReading)): Promise<PrepareResult[]> {
  const out: PrepareResult[] = [];
  for (const [i, input] of task.inputs.entries()) {
    await new Promise<void>((r) => setImmediate(r));
    out.push(...(await prepareNotes({ ...task, inputs: [input] }, [reads[i]])));
  }
  return out;
}

/**
 * One note's rows, replaced whole (the caller wraps this in the note's savepoint), all but the chunks'
 * full-text rows, which the caller writes after the batch's savepoints (writeChunkFts).
 */
function writeNote(db: Db, root: string, p: PreparedNote, meta: NoteMeta, vectorsOf: string | null): { id: number; chunkIds: number[] } {
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

function addTime(times: Record<string, number>, phase: string, since: number): void {
  times[phase] = (times[phase] ?? 0) + (performance.now() - since) / 1000;
}

function recordSkip(db: Db, root: string, skip: SkippedFile, file: ScannedFile | null): void {
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

/**
 * The rows lacking this embedder's vectors (of every kind, or of `kinds`) get them, as an 'embed' phase
 * counted in texts (a count a user can read) whose ETA follows the estimated work: texts differ in length.
 */
export async function embedWithProgress(
  db: Db,
  embedder: Embedder,
  opts: Pick<IndexerOptions, 'onProgress' | 'signal'> & Omit<EmbedMissingOptions, 'onProgress'>,
): Promise<number> {
  // Made on the first report, which says how many texts there are.
  const phase: { progress?: ReturnType<typeof phaseProgress> } = {};
  const onProgress = (p: EmbedProgress) => {
    phase.progress ??= phaseProgress('embed', p.total, opts.onProgress);
    phase.progress.tick(p.done, undefined, p.work);
  };
  const embedded = await embedMissing(db, embedder, { ...opts, onProgress });
  phase.progress?.finish();
  return embedded;
}

/**
 * Work that spans documents: vectors for rows that lack them, the document layer and the pseudo-graph
 * for documents listed in graph_pending. Any pass that rewrites documents' rows (fast or model) ends here.
 */
export async function updateGraph(
  db: Db,
  embedder: Embedder,
  opts: IndexerOptions,
  pool: NotePool | null = null,
  /** Documents this run wrote together with the vectors of all their rows. */
  embeddedHere: ReadonlySet<number> = new Set(),
): Promise<void> {
  const times = opts.phaseTimes ?? {};
  const t0 = performance.now();
  const pruned = pruneOrphanEntities(db, keptVectorsModel(embedder));
  // Here, on this thread, not in the workers that prepared the notes: the detector's tables load once
  // per process instead of once per worker and run.
  await judgeNoteLanguages(db);
  const pending = graphPendingIds(db);
  const graphModel = getSetting<string | null>(db, GRAPH_MODEL, null);
  const sameModel = graphModel === embedder.id;
  // With the graph's embedder unchanged (or no graph built yet, every note waiting for it), only rows
  // of the notes written since the last graph step can lack a vector — a note's rows and its pending
  // mark are written in one transaction — and of those, notes whose vectors were written with them
  // (by the built-in embedder, in the worker) lack none: at 68k notes, scanning 1.7M rows for missing
  // vectors took minutes of disk reads.
  const scoped = sameModel || opts.graphRebuiltLater || (graphModel === null && everyDocumentPending(db));
  const scope = scoped ? { rows: pending.filter((id) => !embeddedHere.has(id)), entities: pending } : null;
  const kinds = opts.factPathsLater ? { kinds: KINDS_SEARCH_READS } : {};
  const embedded = await embedWithProgress(db, embedder, { onProgress: opts.onProgress, signal: opts.signal, scope, ...kinds });
  addTime(times, 'embed', t0);
  if (opts.graphRebuiltLater && !sameModel) {
    // Searchable now (a new generation reloads what questions read); related notes and pgr catch up then.
    if (pending.length > 0 || embedded > 0 || pruned > 0) setSetting(db, INDEX_GENERATION, getSetting(db, INDEX_GENERATION, 0) + 1);
    opts.onProgress?.({ phase: 'done', done: 1, total: 1, etaSeconds: 0 });
    return;
  }

  if (pending.length === 0 && embedded === 0 && pruned === 0 && sameModel) return;
  const t1 = performance.now();
  const graph = phaseProgress('graph', 2, opts.onProgress);
  const changed = sameModel ? new Set(pending) : 'all';
  // A fresh stamp per step: what this process keeps of the graph (document vectors and edges, fusion
  // nodes) is used again only while the index still carries the stamp it was kept under — no other
  // process or failed step has been in between.
  const stamp = { current: getSetting(db, FUSION_STAMP, ''), next: randomUUID() };
  const docs = docMatrix(db, embedder.id, embedder.dim, changed, stamp);
  addTime(times, 'graph: load', t1);
  // With worker threads at hand, a full rebuild's document neighbours are found in one of them while
  // this thread fuses the mind maps: the two steps share nothing but the database, written from here.
  const elsewhere = pool
    ? (m: VectorMatrix, k: number) => pool.neighbours({ neighbours: k, dim: m.dim, ids: m.ids, data: m.data })
    : undefined;
  const t = performance.now();
  const edges = updateDocEdges(db, docs, changed, opts.docNeighbours, undefined, elsewhere, stamp).then(() => {
    addTime(times, 'graph: doc edges', t);
    graph.tick(1);
  });
  // Handled here too, so a failure while fusion runs is not an unhandled rejection (Promise.all reports it).
  edges.catch(() => undefined);
  if (!elsewhere) await edges;
  const tf = performance.now();
  const fusion = updateFusion(db, embedder.id, changed, opts.fusion ?? DEFAULT_FUSION, stamp).then(() => addTime(times, 'graph: fusion', tf));
  await Promise.all([edges, fusion]);
  clearGraphPending(db);
  setSetting(db, GRAPH_MODEL, opts.factPathsLater ? null : embedder.id);
  if (opts.embedderSpec) rememberGraphEmbedder(db, embedder, opts.embedderSpec);
  setSetting(db, FUSION_STAMP, stamp.next);
  setSetting(db, INDEX_GENERATION, getSetting(db, INDEX_GENERATION, 0) + 1);
  graph.finish();
  addTime(times, 'graph', t1);
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
