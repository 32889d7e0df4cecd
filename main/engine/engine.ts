import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { openIndex, schemaVersion, type Db } from './store/db.js';
import { readOnlyNotice, ReadOnlyIndexError } from './read-only-index.js';
import { orNotice } from './answer/model-fallback.js';
import type { GeneratedAnswer } from './answer/generate.js';
import { checkChatModel } from './llm/check-model.js';
import { createEmbedder } from './embed/registry.js';
import type { Embedder } from './embed/embedder.js';
import { indexFolder, type IndexerOptions } from './indexer.js';
import { IndexCache, type SnapshotUse } from './retrieve/index-cache.js';
import type { RetrievalContext } from './retrieve/retriever.js';
import { retrieve } from './retrieve/index.js';
import { warmRetrieval } from './retrieve/warm-up.js';
import { extractiveAnswer } from './answer/extractive.js';
import { answerability } from './answer/answerable.js';
import { notAnswered } from './answer/not-answered.js';
import { matchKeys } from './answer/term-match.js';
import { questionSearchedWords, searchedWords } from './retrieve/query.js';
import { describeSettings, DEFAULT_SETTINGS, readSettings, writeSettings, type Settings } from './settings.js';
import { indexCounts } from './store/counts.js';
import { languageCounts } from './store/languages.js';
import { judgeNoteLanguages } from './ingest/note-language.js';
import { loadMindMap } from './store/mind-map.js';
import { buildGraphView, buildLocalGraph } from './graph/graph-view.js';
import { relatedNotes } from './graph/related.js';
import { isIndexedDocument } from './store/graph-queries.js';
import { watchFolder, type FolderWatch } from './jobs/watch.js';
import { addChatMessage, assertChat, deleteChat, listChats, loadChat, newChat } from './store/chats.js';
import { NotFoundError, UserError } from './errors.js';
import { IndexWriter } from './jobs/index-writer.js';
import { modelsInSettings, type ModelsInUse } from './llm/models/remove.js';
import { getLogger, reportEngineError } from './log.js';
import type { Answer, AskOptions, ChatMessage, DocumentSummary, EmbedderSwitch, FolderSummary, GraphView, IndexReport, MindMapView, ModelPassSummary, NoteText, RelatedNote, Stats } from './api.js';
import type { IndexProgress, RetrievalMethod } from './types.js';
import type { LlmProvider } from './llm/provider.js';
import type { RefineReport } from './extract/llm/refine.js';
import { embedWithProgress, graphEmbedder, needsReembedding, rememberGraphEmbedder, updateGraph } from './indexer.js';
import { KINDS_SEARCH_READS } from './embed/embed-missing.js';
import type { OwnerKind } from './store/embeddings.js';
import { FolderJobs, type FolderJob, type JobControl } from './jobs/folder-jobs.js';
import { checkLibraryRoot } from './library/roots.js';
import { checkScope, EMPTY_SCOPE, scopeFilter, type FolderScope } from './library/scope.js';
import { completePath, type PathCompletion } from './library/complete-path.js';
import { OutsideLibraryError, realPathInside } from './ingest/contain.js';
import { noteContent } from './ingest/read.js';
import {
  deleteFolder,
  documentRoots,
  documentStates,
  extractorCounts,
  findIndexedDocument,
  forgetContentHashes,
  getFolder,
  indexedIdsUnder,
  listFolders,
  noteCounts,
  removeDocumentsUnder,
  saveFolder,
  setFolderScope,
  type DocumentStateRow,
} from './store/library.js';

export interface EngineOptions {
  dbPath: string;
  /** Embedder spec (see embed/registry.ts); default: the settings' choice, else the built-in GloVe embedder. */
  embedder?: string;
  /**
   * Language model: a GGUF path, an installed or catalogue model id, or `http(s)://server/v1#model` for an
   * OpenAI-compatible server. Default: the 'model' setting; none means fast mode.
   */
  model?: string;
  /** Open without writing anything. Default: read-only exactly when the index file cannot be written. */
  readOnly?: boolean;
  /**
   * Go on, in the background, with a switch of embedder a previous run was closed during (default). A
   * one-off command says no: it answers with the previous embedder and leaves the switch to the app.
   */
  resumeSwitch?: boolean;
  /**
   * A command that asks once and exits (`loci ask`): it reads back what the previous process derived from
   * the whole index, when the index has not changed since, and keeps what it derives for the next. Any
   * other process reads them only until its first warm-up, and keeps them as it closes (index-cache.ts).
   */
  oneOff?: boolean;
  /** When another Loci process writes the index: wait for it (default), or fail with IndexLockedError (`--no-wait`). */
  waitForWriter?: boolean;
}

/** What the engine tells its host as jobs run: hosts forward these as contract events. */
export type EngineEvent =
  | { type: 'progress'; root: string; progress: IndexProgress }
  | { type: 'report'; root: string; report: IndexReport }
  | { type: 'error'; root: string; message: string }
  | { type: 'warning'; message: string }
  /** A switch of embedder (settings): the index re-embedded for it, then the swap; or why it failed. */
  | ({ type: 'embedder' } & EmbedderSwitch);

export interface JobOptions {
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** Re-extract this note (or, with `all`, every note of the folder) even though it did not change. */
  redo?: { docId: number } | 'all';
  /**
   * A cancelled first run of a folder normally leaves nothing behind (Cancel means "do not add it");
   * with this, the notes written so far stay (not in the library yet) so the next run resumes (the CLI's Ctrl-C).
   */
  keepPartial?: boolean;
  /** Start even while another Loci process writes the index, waiting for it (watch, the CLI); else refused with IndexLockedError. */
  waitForWriter?: boolean;
}

export { ReadOnlyIndexError };

/** The engine as one object: what the CLI, the browser-mode server and the Electron engine host drive. */
export class LociEngine {
  private cache: IndexCache;
  private running: Promise<unknown> = Promise.resolve();
  /** Aborted by close(): index and model runs stop between notes (each note is written whole or not at all). */
  private readonly closing = new AbortController();
  /** The model provider and the settings it was opened with: changing them in Settings replaces it. */
  private llmOpening: { key: string; spec: string; provider: Promise<LlmProvider> } | null = null;
  private readonly jobs = new FolderJobs();
  private readonly watches = new Map<string, Set<FolderWatch>>();
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private readonly warningList: string[] = [];
  /** Saved folders that cannot be indexed or watched (e.g. /proc saved by an older Loci), with the reason. */
  private readonly refused = new Map<string, string>();
  /** A switch of embedder under way; `swapped` once the new embedder answers (its second stage). */
  private switching: { spec: string; done: Promise<void>; latest: EmbedderSwitch; cancel: AbortController; swapped: boolean } | null = null;
  /** Retrieval warmed up once the index has been quiet this long (retrieve/warm-up.ts). */
  private warmTimer: NodeJS.Timeout | null = null;
  private warming: Promise<void> = Promise.resolve();
  /** The index's one-writer lock across processes, held while the queue writes (jobs/index-writer.ts). */
  private readonly writer: IndexWriter;

  private constructor(
    readonly db: Db,
    readonly dbPath: string,
    private currentEmbedder: Embedder,
    /** The spec the embedder was made from, so Settings can tell when it changes. */
    private embedderSpec: string,
    private readonly modelOverride: string | undefined,
    readonly readOnly: boolean,
    private readonly oneOff = false,
  ) {
    this.cache = new IndexCache(db, currentEmbedder, this.snapshotUse);
    this.writer = new IndexWriter(dbPath, (message) => this.warn(message), (message) => this.publish({ type: 'warning', message }));
  }

  /** What retrieval derives from the whole index, read back from the last process's snapshots (index-cache.ts). */
  private get snapshotUse(): SnapshotUse {
    return this.oneOff ? 'one-off' : 'until-warm';
  }

  /** The embedder in force; Settings may replace it (see switchEmbedder). */
  get embedder(): Embedder {
    return this.currentEmbedder;
  }

  private set embedder(e: Embedder) {
    this.currentEmbedder = e;
  }

  static async open(opts: EngineOptions): Promise<LociEngine> {
    const opened = openIndex(opts.dbPath, { readOnly: opts.readOnly });
    const { db } = opened;
    const readOnly = opened.readOnly !== null;
    try {
      const warnings: string[] = [];
      const stored = readSettings(db).embedder;
      let spec = opts.embedder ?? stored;
      let embedder: Embedder;
      try {
        embedder = await createEmbedder(spec);
      } catch (err) {
        // Asked for on the command line: the caller should hear it. Stored: the index must still open.
        if (opts.embedder !== undefined) throw err;
        warnings.push(`The embedder in Settings ('${stored}') could not be loaded (${errorText(err)}); using the built-in one until Settings name one that loads.`);
        spec = DEFAULT_SETTINGS.embedder;
        embedder = await createEmbedder(spec);
      }
      if (opened.readOnly) warnings.push(readOnlyNotice(db, opts.dbPath, opened.readOnly));
      // A switch of embedder that Loci was closed during: the previous embedder answers again at once and
      // the switch goes on in the background (its progress in Settings), instead of this start waiting
      // for the rest of it (hours, on a big library with a real embedder).
      const previous = !readOnly && opts.embedder === undefined && needsReembedding(db, embedder) ? await loadGraphEmbedder(db) : null;
      const engine = previous
        ? new LociEngine(db, opts.dbPath, previous.embedder, previous.spec, opts.model, readOnly, opts.oneOff)
        : new LociEngine(db, opts.dbPath, embedder, spec, opts.model, readOnly, opts.oneOff);
      for (const w of warnings) engine.warn(w);
      engine.writer.wait = opts.waitForWriter ?? true;
      // What an open writes, only while no other Loci process writes: an `ask` never waits for an index run.
      const writes = !readOnly && engine.writer.tryTake('opening the index');
      try {
        engine.checkSavedFolders();
        if (writes) await judgeNoteLanguages(db);
        if (previous) {
          if (opts.resumeSwitch ?? true) engine.switchInBackground(spec, embedder);
          else {
            await embedder.dispose?.();
            engine.warn(`Search uses ${previous.embedder.id}: the switch to '${spec}' is not finished; it goes on when the app, loci serve or loci watch opens this index.`);
          }
          return engine;
        }
        // An index made with another embedder (an upgrade of the built-in one, or a switch whose previous
        // embedder no longer loads) has no vectors this one can compare with: re-embed and rebuild the
        // graph before anything is asked.
        if (needsReembedding(db, engine.embedder)) {
          if (readOnly) engine.warn(`The index was built with another embedder than ${engine.embedder.id}; open it writable to re-embed it.`);
          // Else another Loci process is writing it (its first run, usually), and its graph step does this.
          else if (writes) await updateGraph(db, engine.embedder, engine.indexDefaults());
        }
        if (writes) rememberGraphEmbedder(db, engine.embedder, spec);
      } finally {
        if (writes) engine.writer.release();
      }
      engine.scheduleWarmUp();
      return engine;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Receives every job's progress, final report and error, and warnings; returns the unsubscribe. */
  subscribe(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Problems the engine worked around (a stored embedder that fails, a refused folder, read-only), and notices such as notes re-extracted after an upgrade. */
  warnings(): string[] {
    return [...this.warningList];
  }

  private warn(message: string): void {
    this.warningList.push(message);
    this.publish({ type: 'warning', message });
  }

  private publish(e: EngineEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // A host's listener failing must not stop a job.
      }
    }
  }

  /** A folder saved by an older Loci may be a system tree (/proc): it is skipped, never scanned or watched. */
  private checkSavedFolders(): void {
    for (const { root } of listFolders(this.db)) {
      try {
        checkLibraryRoot(root);
      } catch (err) {
        this.refused.set(root, errorText(err));
        this.warn(`Library folder ${root} is skipped: ${errorText(err)} Remove it from the library.`);
      }
    }
  }

  get retrievalContext(): RetrievalContext {
    return { db: this.db, embedder: this.embedder, cache: this.cache };
  }

  /** Library folders that can be indexed and watched (refused ones are listed by folders()). */
  roots(): string[] {
    return listFolders(this.db)
      .map((f) => f.root)
      .filter((r) => !this.refused.has(r));
  }

  folders(): FolderSummary[] {
    const counts = noteCounts(this.db);
    const saved = listFolders(this.db);
    // A folder whose first run was interrupted (Loci closed or was killed) has notes but is not saved yet.
    const interrupted = documentRoots(this.db)
      .filter((root) => !saved.some((f) => f.root === root))
      .map((root) => ({ root, include: [], exclude: [], interrupted: true }));
    return [...saved.map((f) => ({ ...f, interrupted: false })), ...interrupted].map((f) => ({
      root: f.root,
      include: f.include,
      exclude: f.exclude,
      noteCount: counts.get(f.root) ?? 0,
      watching: (this.watches.get(f.root)?.size ?? 0) > 0,
      job: this.jobs.phase(f.root),
      problem:
        this.refused.get(f.root) ??
        (f.interrupted && this.jobs.phase(f.root) === 'idle' ? 'its first index run did not finish: index it again to finish, or remove it' : null),
    }));
  }

  /**
   * Indexes a folder as one job (fast pass, then the model pass when a model is configured, then the
   * graph) and resolves with its final report. A folder becomes a library folder only when it is a
   * valid notes folder and the job was neither cancelled nor failed. When a job for the folder is
   * running, this one starts after it.
   */
  async index(root: string, opts: JobOptions & IndexerOptions = {}): Promise<IndexReport> {
    const abs = resolve(root);
    await this.jobs.get(abs)?.done.catch(() => undefined);
    return this.startJob(abs, { waitForWriter: this.writer.wait, ...opts }).done;
  }

  /** Starts the folder's job; throws when the folder is invalid or a job for it is running. */
  startJob(root: string, opts: JobOptions & IndexerOptions = {}): FolderJob {
    this.assertWritable('index a folder');
    if (!opts.waitForWriter) this.writer.assertFree();
    const abs = checkLibraryRoot(root);
    return this.jobs.start(abs, (control) => this.runJob(abs, control, opts), this.untilClosed(opts.signal));
  }

  /** Cancels the folder's job; its final report says cancelled. */
  cancelJob(root: string): boolean {
    const job = this.jobs.get(resolve(root));
    job?.cancel();
    return Boolean(job);
  }

  private async runJob(root: string, control: JobControl, opts: JobOptions & IndexerOptions): Promise<IndexReport> {
    const started = performance.now();
    const onProgress = (progress: IndexProgress) => {
      opts.onProgress?.(progress);
      this.publish({ type: 'progress', root, progress });
    };
    const onNotice = (message: string) => {
      this.warn(message);
      opts.onNotice?.(message);
    };
    const { signal } = control;
    const wasSaved = getFolder(this.db, root) !== undefined;
    const scope = this.scopeOf(root);
    try {
      const fast = await this.serialised(async () => {
        if (opts.redo) forgetContentHashes(this.db, root, opts.redo === 'all' ? undefined : opts.redo.docId);
        const report = await indexFolder(this.db, this.embedder, root, { ...this.indexDefaults(), ...opts, excluded: scopeFilter(scope), onProgress, onNotice, signal });
        saveFolder(this.db, root);
        return report;
      }, `indexing ${root}`, signal);
      this.refused.delete(root);
      control.searchable(fast);
      this.scheduleWarmUp();

      control.setPhase('model');
      const model = await this.modelPass(root, onProgress, signal, control);
      const report: IndexReport = { ...fast, counts: indexCounts(this.db), seconds: (performance.now() - started) / 1000 };
      if (model) report.model = model.summary;
      if (model?.cancelled) report.cancelled = true;
      if (model) this.scheduleWarmUp();
      this.publish({ type: 'report', root, report });
      return report;
    } catch (err) {
      if (!signal.aborted) {
        if (!wasSaved) await this.forgetUnsaved(root);
        this.publish({ type: 'error', root, message: errorText(err) });
        throw err;
      }
      // Cancelled by the user in the fast pass: a folder that was not in the library leaves nothing
      // behind. Stopped because Loci is closing: what was written stays, so the next run resumes it.
      if (!wasSaved && !this.closing.signal.aborted && !opts.keepPartial) await this.forgetUnsaved(root);
      const report: IndexReport = {
        root,
        counts: indexCounts(this.db),
        changed: 0,
        unchanged: 0,
        moved: 0,
        removed: 0,
        skipped: [],
        readAs: [],
        seconds: (performance.now() - started) / 1000,
        cancelled: true,
      };
      // Shown as cancelled, not as a failure: the one final report says so (no index.error).
      this.publish({ type: 'report', root, report });
      return report;
    }
  }

  /** The folder's model pass and graph update; null in fast mode. A cancel returns what was done. */
  private async modelPass(
    root: string,
    onProgress: (p: IndexProgress) => void,
    signal: AbortSignal,
    control: JobControl,
  ): Promise<{ summary: ModelPassSummary; cancelled: boolean } | null> {
    if (!this.modelSpec()) return null;
    const t0 = performance.now();
    const docIds = indexedIdsUnder(this.db, root);
    // Loading a model takes seconds: say so before the first note's progress.
    onProgress({ phase: 'llm', done: 0, total: docIds.length, etaSeconds: null, current: 'loading the model' });
    let llm: LlmProvider | null;
    try {
      llm = await this.llm();
    } catch (err) {
      const summary = noModelPass(0, `the model could not be loaded: ${errorText(err)}`);
      this.warn(`Model pass for ${root}: ${summary.error}`);
      return { summary, cancelled: false };
    }
    if (!llm) return null;
    try {
      const report = await this.serialised(() => this.refineWith(llm, { onProgress, signal, docIds }, control));
      return { summary: summarise(report, t0, null), cancelled: false };
    } catch (err) {
      const seconds = (performance.now() - t0) / 1000;
      if (signal.aborted) return { summary: noModelPass(seconds, null), cancelled: true };
      return { summary: noModelPass(seconds, errorText(err)), cancelled: false };
    }
  }

  private async refineWith(
    llm: LlmProvider,
    opts: { onProgress?: (p: IndexProgress) => void; signal?: AbortSignal; docIds?: number[] },
    control?: JobControl,
  ): Promise<RefineReport> {
    const { refineIndex } = await import('./extract/llm/refine.js');
    const signal = this.untilClosed(opts.signal);
    // The graph step below embeds the rewritten notes' rows (they are marked pending), with progress.
    const report = await refineIndex(this.db, this.embedder, llm, { ...opts, signal, embed: false });
    control?.setPhase('graph');
    await updateGraph(this.db, this.embedder, { ...this.indexDefaults(), onProgress: opts.onProgress, signal });
    return report;
  }

  /** Rows a failed or cancelled first run of a folder wrote go with it: only library folders keep notes. */
  private async forgetUnsaved(root: string): Promise<void> {
    if (getFolder(this.db, root)) return;
    await this.serialised(async () => {
      if (removeDocumentsUnder(this.db, root) > 0) await updateGraph(this.db, this.embedder, this.indexDefaults());
    });
  }

  /** The model spec in force ('--model', else the 'model' setting), or null in fast mode. */
  modelSpec(): string | null {
    return this.modelOverride ?? (this.settings().model || null);
  }

  /**
   * The model pass over every indexed note (folder jobs run it per folder): notes that fast mode made
   * searchable are rewritten by the model, then re-embedded and re-fused. Returns null in fast mode.
   */
  refine(opts: { onProgress?: (p: IndexProgress) => void; signal?: AbortSignal } = {}): Promise<RefineReport | null> {
    this.assertWritable('run the model pass');
    return this.serialised(async () => {
      const llm = await this.llm();
      return llm ? this.refineWith(llm, opts) : null;
    });
  }

  /** The language model, opened on first use and kept while its settings stand: loading a model is the slow part. */
  async llm(): Promise<LlmProvider | null> {
    const spec = this.modelSpec();
    const { threads, sequences } = this.settings();
    const tuning = { threads, sequences };
    const key = spec ? JSON.stringify([spec, tuning]) : null;
    if (this.llmOpening && this.llmOpening.key !== key) {
      const previous = this.llmOpening.provider;
      this.llmOpening = null;
      await (await previous.catch(() => null))?.close();
    }
    if (!spec || !key) return null;
    if (!this.llmOpening) {
      const opening = { key, spec, provider: import('./llm/open.js').then(({ openLlm }) => openLlm(spec, tuning)) };
      // A model that fails to open is tried again next time rather than remembered as broken.
      opening.provider.catch(() => {
        if (this.llmOpening === opening) this.llmOpening = null;
      });
      this.llmOpening = opening;
    }
    return this.llmOpening.provider;
  }

  /** Removes a library folder and everything it contributed; stops its job and watchers first. */
  async removeFolder(root: string): Promise<{ removed: number }> {
    this.assertWritable('remove a folder');
    this.writer.assertFree();
    const abs = resolve(root);
    if (!getFolder(this.db, abs) && !documentRoots(this.db).includes(abs)) throw new NotFoundError(`${abs} is not a library folder.`);
    await this.unwatch(abs);
    await this.jobs.stop(abs);
    return this.serialised(async () => {
      const removed = removeDocumentsUnder(this.db, abs);
      deleteFolder(this.db, abs);
      this.refused.delete(abs);
      await updateGraph(this.db, this.embedder, this.indexDefaults());
      return { removed };
    }, `removing ${abs} from the library`);
  }

  /** Sets a folder's include/exclude globs and starts its job (notes now left out are removed by its scan). */
  async setScope(root: string, scope: FolderScope): Promise<FolderJob> {
    this.assertWritable('change a folder scope');
    this.writer.assertFree();
    const abs = resolve(root);
    if (!getFolder(this.db, abs)) throw new NotFoundError(`${abs} is not a library folder; index it first.`);
    const checked = checkScope(scope);
    await this.jobs.stop(abs);
    await this.serialised(async () => setFolderScope(this.db, abs, checked), `changing the scope of ${abs}`);
    // A watcher may have started a run in between (with the new scope or not): restart it with this one.
    if (await this.jobs.stop(abs)) await this.jobs.get(abs)?.done.catch(() => undefined);
    return this.startJob(abs);
  }

  /** Re-extracts a folder's notes (or one of them) even though they did not change. */
  reindex(root: string, docId?: number): FolderJob {
    const abs = resolve(root);
    if (!getFolder(this.db, abs)) throw new NotFoundError(`${abs} is not a library folder.`);
    if (docId !== undefined && !documentStates(this.db, docId).some((d) => d.root === abs)) throw new NotFoundError(`No note ${docId} in ${abs}.`);
    return this.startJob(abs, { redo: docId === undefined ? 'all' : { docId } });
  }

  /** Existing directories starting with `prefix`, for a folder field (see library/complete-path.ts). */
  completePath(prefix: string, opts: { hidden?: boolean } = {}): Promise<PathCompletion> {
    return completePath(prefix, opts);
  }

  private scopeOf(root: string): FolderScope {
    const f = getFolder(this.db, root);
    return f ? { include: f.include, exclude: f.exclude } : EMPTY_SCOPE;
  }

  private untilClosed(signal?: AbortSignal): AbortSignal {
    return signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
  }

  /** The one queue every write of this engine goes through, each under the index's writer lock. */
  private serialised<T>(work: () => Promise<T>, activity = 'writing to this index', signal?: AbortSignal): Promise<T> {
    const run = this.running.then(() => this.writer.run(activity, work, this.untilClosed(signal)));
    this.running = run.catch(() => undefined);
    return run;
  }

  private assertWritable(action: string): void {
    if (this.readOnly) throw new ReadOnlyIndexError(this.db, this.dbPath, action);
  }

  /**
   * Keeps a folder's index current as files change; each change runs the folder's job (incremental).
   * Refuses system trees; links are not followed and the folder's scope applies.
   */
  watch(root: string, onReport?: (r: IndexReport) => void, onProgress?: (p: IndexProgress) => void, onError?: (e: Error) => void): FolderWatch {
    this.assertWritable('watch a folder');
    const abs = checkLibraryRoot(root);
    const reason = this.refused.get(abs);
    if (reason) throw new Error(`${abs} cannot be watched: ${reason}`);
    let filter = { scope: this.scopeOf(abs), fn: scopeFilter(this.scopeOf(abs)) };
    const excluded = (rel: string, isDir: boolean) => {
      // The scope may change while watching: rebuild the matcher only when it did.
      const now = this.scopeOf(abs);
      if (JSON.stringify(now) !== JSON.stringify(filter.scope)) filter = { scope: now, fn: scopeFilter(now) };
      return filter.fn?.(rel, isDir) ?? false;
    };
    let closed = false;
    // A change seen while the folder's job runs waits for it; a watch closed meanwhile (the folder was
    // removed) starts nothing, so a removed folder is never indexed back in.
    const runIndex = async () => {
      await this.jobs.get(abs)?.done.catch(() => undefined);
      if (closed) throw new Error(`${abs} is no longer watched`);
      return this.startJob(abs, { onProgress, waitForWriter: true }).done;
    };
    const w = watchFolder(abs, runIndex, onReport ?? (() => undefined), onError, { excluded });
    const set = this.watches.get(abs) ?? new Set<FolderWatch>();
    set.add(w);
    this.watches.set(abs, set);
    return {
      ready: w.ready,
      watchedDirectories: w.watchedDirectories,
      close: async () => {
        closed = true;
        set.delete(w);
        await w.close();
      },
    };
  }

  private async unwatch(root: string): Promise<void> {
    const set = this.watches.get(root);
    this.watches.delete(root);
    await Promise.all([...(set ?? [])].map((w) => w.close()));
  }

  async ask(question: string, opts: AskOptions = {}): Promise<Answer> {
    const started = performance.now();
    // The app's contract refuses it too; the CLI and scripts come straight here.
    if (!question.trim()) throw new UserError('The question is empty: type what you want to find in your notes.');
    if (opts.chatId !== undefined) assertChat(this.db, opts.chatId);
    const method = opts.method ?? (this.settings().method as RetrievalMethod);
    const k = opts.k ?? 8;
    const modelNotices: string[] = [];
    let llm = await orNotice(() => this.llm(), this.modelSpec(), modelNotices, opts.signal);
    const ctx = this.retrievalContext;
    if (llm && (method === 'pgr' || method === 'loci')) {
      const { keyPoints } = await import('./answer/generate.js');
      const model = llm;
      const points = await orNotice(() => keyPoints(model, question, { signal: opts.signal }), this.modelSpec(), modelNotices, opts.signal);
      if (points) ctx.keyPoints = points;
      else llm = null;
    }
    const result = await retrieve(ctx, question, method, k);
    const terms = result.query.terms;
    let answer: Pick<Answer, 'text' | 'citations' | 'droppedCitations' | 'mode' | 'model' | 'support'>;
    let generated: GeneratedAnswer | null = null;
    // Contexts that do not answer are named as the nearest notes, not quoted or handed to a model as if they did.
    const judged = answerability(ctx, result.query, result.contexts);
    if (!judged.answerable && terms.length && result.contexts.length) {
      answer = { ...notAnswered(result.contexts), mode: llm ? 'generated' : 'extractive', model: null, droppedCitations: 0 };
    } else if (llm && (generated = await orNotice(async () => (await import('./answer/generate.js')).generateAnswer(llm!, question, result.contexts, { onToken: opts.onToken, signal: opts.signal, terms, embedder: ctx.embedder }), this.modelSpec(), modelNotices, opts.signal))) {
      const g = generated;
      answer = {
        text: g.text,
        mode: 'generated',
        model: llm.id,
        droppedCitations: g.dropped,
        support: g.support,
        citations: g.citations.flatMap((n) => {
          const c = result.contexts[n - 1];
          return c ? [{ n, docId: c.docId, docPath: c.docPath, docTitle: c.docTitle, lineFrom: c.lineFrom, lineTo: c.lineTo, factPath: c.factPath, text: c.text }] : [];
        }),
      };
    } else {
      answer = { ...(await extractiveAnswer(ctx, question, result.contexts, 5, result.query)), mode: 'extractive', model: null, droppedCitations: 0 };
    }
    // A read-only index answers without saving the conversation.
    let chatId: number | undefined;
    let unsaved: string | null = null;
    if (!this.readOnly) {
      // Another process's long write can outlast SQLite's busy timeout: the answer still goes out.
      try {
        chatId = this.db.transaction(() => {
          const id = opts.chatId ?? newChat(this.db, question);
          addChatMessage(this.db, id, { role: 'user', text: question, citations: [], contexts: [], method, model: null });
          addChatMessage(this.db, id, { role: 'assistant', text: answer.text, citations: answer.citations, contexts: result.contexts, method, model: answer.model });
          return id;
        })();
      } catch (err) {
        unsaved = `This answer was not saved to the conversation history: ${errorText(err)}.`;
      }
    }
    const notice = [...modelNotices, method === 'pgr' ? this.factPathsNotice() : null, unsaved].filter(Boolean).join(' ') || null;
    return {
      question,
      ...answer,
      answerable: judged.answerable,
      answerScore: judged.score,
      ...(notice ? { notice } : {}),
      method,
      contexts: result.contexts,
      matchKeys: matchKeys(searchedWords(terms, result.query.variants)),
      explanation: opts.explain ? result.explanation : undefined,
      chatId,
      ms: performance.now() - started,
    };
  }

  /** Every note the index knows, with its state: fast or model rows, skipped or failed with the reason. */
  documents(): DocumentSummary[] {
    return documentStates(this.db).map(toSummary);
  }

  /** A note's mind map, by id when given (unambiguous across library folders), else by relative path. */
  mindMap(docPath: string, docId?: number): MindMapView | null {
    const doc = findIndexedDocument(this.db, docPath, docId);
    return doc ? loadMindMap(this.db, doc.id) : null;
  }

  /** A note's text, read from disk — only when its real path (links resolved) lies inside its library folder. */
  async noteText(docPath: string, docId?: number): Promise<NoteText> {
    const { doc, real } = await this.noteFile(docPath, docId);
    // Read as indexing read it (encoding, line breaks), so line N here is the line N citations name.
    // Its text only: no hash, and its real path was checked just above.
    const read = noteContent(await readFile(real));
    if (!read.ok && read.reason === 'empty') return { docPath: doc.rel_path, title: doc.title, lines: [] };
    if (!read.ok) throw new Error(`'${doc.rel_path}' cannot be shown: ${read.reason} (${read.detail})`);
    return { docPath: doc.rel_path, title: doc.title, lines: read.content.split('\n') };
  }

  /** The file behind an indexed note, by its real path — never one whose links lead out of its folder. */
  async noteFile(docPath: string, docId?: number) {
    const doc = findIndexedDocument(this.db, docPath, docId);
    if (!doc) throw new NotFoundError(`No indexed note '${docPath}'.`);
    const file = resolve(doc.root, doc.rel_path);
    const real = await realPathInside(doc.root, file).catch((err: unknown) => {
      throw new Error(`'${doc.rel_path}' cannot be read: ${errorText(err)}`);
    });
    if (!real) throw new OutsideLibraryError(`'${doc.rel_path}'`);
    return { doc, real };
  }

  graph(opts: { limit?: number } = {}): GraphView {
    return buildGraphView(this.db, opts.limit ?? 2000);
  }

  /** The graph around one note, `hops` document-layer edges out, in the shape of `graph()`. */
  localGraph(docId: number, opts: { hops?: 1 | 2; limit?: number } = {}): GraphView {
    if (!isIndexedDocument(this.db, docId)) throw new NotFoundError(`No indexed note with id ${docId}.`);
    return buildLocalGraph(this.db, docId, opts.hops ?? 1, opts.limit ?? 300);
  }

  /** Notes related to one note, best first, each with why (similar passage, shared entities, shared topics). */
  related(docId: number, opts: { limit?: number } = {}): RelatedNote[] {
    if (!isIndexedDocument(this.db, docId)) throw new NotFoundError(`No indexed note with id ${docId}.`);
    return relatedNotes(this.db, docId, this.embedder.id, opts.limit);
  }

  stats(): Stats {
    return {
      dbPath: this.dbPath,
      roots: this.roots(),
      counts: indexCounts(this.db),
      embedder: this.embedder.id,
      extractors: extractorCounts(this.db),
      schemaVersion: schemaVersion(this.db),
      languages: languageCounts(this.db),
      switching: this.switching?.latest ?? null,
    };
  }

  /**
   * The models in use, so none is deleted: what the settings name, and also — mid-switch — the embedder
   * still in force (questions use it until the new one's vectors are complete) and a language model
   * opened under an earlier setting.
   */
  modelsInUse(): ModelsInUse {
    const stored = modelsInSettings(this.settings());
    const unique = (specs: (string | null | undefined)[]) => [...new Set(specs.filter((x): x is string => !!x))];
    return {
      answers: unique([...stored.answers, this.modelSpec(), this.llmOpening?.spec]),
      search: unique([...stored.search, this.embedderSpec, this.switching?.spec]),
    };
  }

  chats() {
    return listChats(this.db);
  }

  /** Forgets a past conversation: its questions and answers go; the notes and the index are untouched. */
  deleteChat(id: number): void {
    this.assertWritable('delete a conversation');
    deleteChat(this.db, id);
  }

  async chat(id: number): Promise<ChatMessage[]> {
    assertChat(this.db, id);
    // An answer's passages mark its question's words, as when it was asked (matchKeys).
    let question = '';
    const out: ChatMessage[] = [];
    for (const m of loadChat(this.db, id)) {
      if (m.role === 'user') question = m.text;
      out.push({ ...m, matchKeys: m.role === 'assistant' ? matchKeys(await questionSearchedWords(this.retrievalContext, question)) : [] });
    }
    return out;
  }

  /** Every user setting with the value in force (stored, else its default). */
  settings(): Settings {
    return readSettings(this.db);
  }

  /** Each setting's label, control, bounds and default (for a settings form). */
  describeSettings() {
    return describeSettings();
  }

  /**
   * Validates and stores settings. A new embedder is loaded before anything is stored (one that fails
   * stores nothing and throws); the index is then re-embedded for it in the background and the
   * embedder swapped only when that is done, so questions meanwhile keep using complete vectors (its
   * progress, and its end or failure, reach hosts as `embedder` events; a failed one puts the setting
   * back). A newly chosen model starts on the library's folders.
   */
  async updateSettings(patch: Record<string, unknown>): Promise<void> {
    this.assertWritable('change settings');
    const before = this.settings();
    const wanted = typeof patch.embedder === 'string' ? patch.embedder.trim() || DEFAULT_SETTINGS.embedder : patch.embedder === null ? DEFAULT_SETTINGS.embedder : undefined;
    const model = typeof patch.model === 'string' ? patch.model.trim() : '';
    if (model && model !== before.model) await checkChatModel(model);
    let next: Embedder | null = null;
    if (wanted !== undefined && wanted !== this.embedderSpec && wanted !== this.switching?.spec) {
      next = await createEmbedder(wanted).catch((err: unknown) => {
        throw new UserError(`Embedder '${wanted}' could not be loaded, so the setting was not changed: ${errorText(err)}`);
      });
    }
    try {
      writeSettings(this.db, patch);
    } catch (err) {
      await next?.dispose?.();
      throw err;
    }
    // Another embedder chosen mid-switch (the one still in force, or a third) stops that switch: it would
    // otherwise run for hours and then swap in a model the settings no longer name.
    if (wanted !== undefined && this.switching && this.switching.spec !== wanted) this.switching.cancel.abort(new Error(`'${wanted}' was chosen instead`));
    if (next && wanted !== undefined) this.switchInBackground(wanted, next);
    const after = this.settings();
    if (after.model && after.model !== before.model && !this.modelOverride) {
      for (const root of this.roots()) {
        if (!this.jobs.get(root)) void this.index(root).catch(() => undefined); // failures reach listeners as events
      }
    }
  }

  /** While a switch embeds PG-RAG's fact paths for the model already answering, pgr reads those done so far. */
  private factPathsNotice(): string | null {
    if (!this.switching?.swapped) return null;
    const p = this.switching.latest.progress;
    const share = p?.phase === 'embed' && p.total > 0 ? ` (${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')})` : '';
    return `The switch of embedder is still embedding PG-RAG's fact paths for the new model${share}: pgr searched those done so far.`;
  }

  /** A switch whose end or failure reaches hosts as events (Settings, or a start resuming one: see open). */
  private switchInBackground(spec: string, next: Embedder): void {
    void this.switchTo(spec, next).catch((err) => {
      reportEngineError('embedder', err);
      this.warn(`Embedder '${spec}': ${errorText(err)}`);
    });
  }

  /** Replaces the embedder (after running work finishes) and re-embeds the index for it. */
  async switchEmbedder(spec: string): Promise<void> {
    this.assertWritable('switch the embedder');
    if (this.switching?.spec === spec) return this.switching.done;
    if (spec === this.embedderSpec) return;
    await this.switchTo(spec, await createEmbedder(spec));
  }

  /**
   * A switch that fails before the swap puts the setting back to the embedder in force, so Settings name
   * the one still answering — unless Loci is closing (the next start resumes the switch) or another
   * embedder has been chosen since. One that fails after it keeps the new embedder: its vectors for what
   * questions read are complete, and the next graph step embeds the fact paths left.
   */
  private switchTo(spec: string, next: Embedder): Promise<void> {
    const publish = (state: EmbedderSwitch['state'], progress: IndexProgress | null, message?: string) => {
      const event: EmbedderSwitch = {
        spec,
        id: next.id,
        state,
        progress,
        // Once swapped, the new embedder answers (the fact paths and the graph follow).
        ...(switching.swapped && state !== 'done' ? { answering: true } : {}),
        ...(message !== undefined ? { message } : {}),
      };
      if (this.switching === switching) switching.latest = event;
      this.publish({ type: 'embedder', ...event });
    };
    // Declared before the work starts so its first event is kept as the switch's latest.
    const switching: NonNullable<typeof this.switching> = {
      spec,
      done: Promise.resolve(),
      latest: { spec, id: next.id, state: 'running', progress: null },
      cancel: new AbortController(),
      swapped: false,
    };
    this.switching = switching;
    const signal = AbortSignal.any([this.closing.signal, switching.cancel.signal]);
    // Index runs are not held for hours behind the switch: texts are embedded outside the engine's queue
    // and each batch's vectors written in it, between other work. Rows an index run writes meanwhile are
    // found by the next pass (before the swap) or embedded by the run itself (after it).
    const lock = (write: () => Promise<void>) => this.serialised(write);
    const onProgress = (p: IndexProgress) => {
      if (!(p.phase === 'embed' && p.total === 0)) publish('running', p);
    };
    const embedUntilDone = async (kinds: readonly OwnerKind[]) => {
      while ((await embedWithProgress(this.db, next, { onProgress, signal, kinds, lock })) > 0);
    };
    const done = (async () => {
      await this.serialised(async () => signal.throwIfAborted()); // work under way first
      publish('running', null);
      const rebuild = needsReembedding(this.db, next);
      // What questions read is embedded for the new model first (vectors are kept per model), then the
      // swap: answers never see half of it. PG-RAG's fact paths, most of the work, and the graph follow.
      if (rebuild) await embedUntilDone(KINDS_SEARCH_READS);
      await this.serialised(async () => {
        signal.throwIfAborted();
        if (rebuild) await embedWithProgress(this.db, next, { onProgress, signal, kinds: KINDS_SEARCH_READS }); // written since the last pass
        const previous = this.embedder;
        this.embedderSpec = spec;
        this.embedder = next;
        this.cache = new IndexCache(this.db, next, this.snapshotUse);
        switching.swapped = true;
        await previous.dispose?.();
      });
      if (rebuild) await embedUntilDone(['mm']);
      // Also without a rebuild (the graph was already this model's): notes an index run wrote just before
      // the swap left their graph step to the switch.
      await this.serialised(() => updateGraph(this.db, next, { ...this.indexDefaults(), graphRebuiltLater: false, onProgress, signal }));
      rememberGraphEmbedder(this.db, next, spec);
      this.scheduleWarmUp();
      publish('done', null);
    })().catch(async (err: unknown) => {
      if (this.embedder !== next) {
        if (!this.closing.signal.aborted && this.settings().embedder === spec) writeSettings(this.db, { embedder: this.embedderSpec });
        await next.dispose?.();
      }
      publish('failed', null, errorText(err));
      throw err;
    });
    switching.done = done;
    const clear = () => {
      if (this.switching === switching) this.switching = null;
    };
    done.then(clear, clear);
    return done;
  }

  /**
   * Builds retrieval's index-wide structures in idle time, once the index has not changed for
   * WARM_UP_DELAY_MS (a watched folder saved every few seconds is warmed once it settles), so the next
   * question does not pay for them. Never keeps the process alive; a failure only costs that question.
   */
  private scheduleWarmUp(): void {
    if (this.closing.signal.aborted) return;
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.warmTimer = setTimeout(() => this.warmUpNow(), WARM_UP_DELAY_MS);
    this.warmTimer.unref();
  }

  private warmUpNow(): void {
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.warmTimer = null;
    this.warming = this.warmUp();
  }

  private async warmUp(): Promise<void> {
    // A fast pass under way would change the index under it (and it schedules one when it ends).
    if (this.closing.signal.aborted || this.jobs.anyInFastPass()) return;
    try {
      // Values read back from snapshots at open are derived now, with the per-note parts an edit reuses.
      this.cache.endSnapshotReads();
      await warmRetrieval(this.retrievalContext, this.settings().method as RetrievalMethod);
    } catch (err) {
      getLogger('engine').warn({ err: errorText(err) }, 'retrieval warm-up failed; the next question builds what it needs');
    }
  }

  /** Runs a warm-up that is waiting for the index to settle now, and resolves when none is under way (tests, benchmarks). */
  async retrievalWarm(): Promise<void> {
    if (this.warmTimer) this.warmUpNow();
    await this.warming;
  }

  async close(): Promise<void> {
    this.closing.abort(new Error('Loci is closing'));
    if (this.warmTimer) clearTimeout(this.warmTimer);
    await this.warming;
    await this.jobs.stopAll();
    await Promise.all([...this.watches.keys()].map((root) => this.unwatch(root)));
    await this.running;
    // A switch stops after the batch it is embedding, which it writes: the next start goes on from there.
    await this.switching?.done.catch(() => undefined);
    if (this.llmOpening) await (await this.llmOpening.provider.catch(() => null))?.close();
    await this.embedder.dispose?.();
    if (!this.readOnly) this.cache.saveSnapshots();
    this.db.close();
  }

  private indexDefaults(): IndexerOptions {
    const s = this.settings();
    return {
      fusion: { topic: s.fusionTopic, fact: s.fusionFact },
      docNeighbours: s.docNeighbours,
      maxBytes: s.maxBytes,
      embedderSpec: this.embedderSpec,
      graphRebuiltLater: this.switching !== null,
    };
  }
}

/**
 * How long the index must stay unchanged before retrieval is warmed up: an editor that saves every second
 * or two while someone types re-indexes the note each time, and each warm-up of a 10k-note library costs
 * the engine 0.6–1.2 s (what is kept per note outlasts the edit; the first in a process, 2.5 s).
 */
const WARM_UP_DELAY_MS = 3000;

/** The embedder the graph was last built with, loaded again, when it still loads as the same model. */
async function loadGraphEmbedder(db: Db): Promise<{ spec: string; embedder: Embedder } | null> {
  const built = graphEmbedder(db);
  if (!built) return null;
  const embedder = await createEmbedder(built.spec).catch(() => null);
  if (embedder?.id === built.id) return { spec: built.spec, embedder };
  await embedder?.dispose?.();
  return null;
}

function toSummary(d: DocumentStateRow): DocumentSummary {
  const { modelExtractor, lastJobStatus, lastJobError, ...rest } = d;
  if (d.status === 'skipped') return { ...rest, state: 'skipped', reason: d.error };
  if (d.status === 'error') return { ...rest, state: 'failed', reason: d.error };
  if (modelExtractor) return { ...rest, state: 'model', reason: null };
  // A model attempt that failed for the note itself (not a cancel or a killed run) is shown as failed.
  if (lastJobStatus === 'failed' && lastJobError && !['cancelled', 'interrupted'].includes(lastJobError)) {
    return { ...rest, state: 'failed', reason: `model pass: ${lastJobError}` };
  }
  return { ...rest, state: 'fast', reason: null };
}

/** A model pass that refined nothing: it could not start, failed, or was cancelled. */
function noModelPass(seconds: number, error: string | null): ModelPassSummary {
  return { extractor: null, refined: 0, cached: 0, reusedPieces: 0, failed: 0, seconds, error };
}

function summarise(r: RefineReport, t0: number, error: string | null): ModelPassSummary {
  return { extractor: r.extractor, refined: r.refined, cached: r.cached, reusedPieces: r.reusedPieces, failed: r.failed.length, seconds: (performance.now() - t0) / 1000, error };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
