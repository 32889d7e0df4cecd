// Notes flow through an index run in batches: prepared in worker threads (or on this thread for a
// handful), written here in submission order, each batch one transaction and each note a savepoint.
import type { Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import type { ReadAsFile, SkippedFile } from '../types.js';
import { prepareNotes, startReading, type NoteInput, type PrepareResult, type PrepareTask } from '../index-worker/prepare-note.js';
import type { ReadResult } from '../ingest/read.js';
import type { ScannedFile } from '../ingest/scan.js';
import { keptVectorsModel, STATIC_EMBEDDER_ID } from '../embed/static-embedder.js';
import { openNotePool, workerCount, type NotePool } from '../index-worker/pool.js';
import { deleteDocument, moveDocument, touchDocument, useBulkWriteCache, writeChunkFts, type DocumentRow } from '../store/documents.js';
import { addTime } from '../jobs/progress.js';
import { recordSkip, writeNote, type NoteMeta } from './write-note.js';

/** Below this many notes to prepare, starting worker threads costs more than it saves. */
export const MIN_NOTES_FOR_WORKERS = 48;
/** Notes per worker task and per write transaction (each note its own savepoint inside it). */
const BATCH_NOTES = 8;
/** Batches this thread may run ahead by, preparing them itself, while a worker still holds the oldest. */
const LOOK_AHEAD_BATCHES = 12;

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
export class NotePipeline {
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

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
