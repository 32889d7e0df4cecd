// The library: its folders, one job per folder (fast pass → model pass → graph), the one registry of
// folder watchers, and each folder's scope. A folder joins the library only when its first run succeeds.
import { resolve } from 'node:path';
import { indexFolder, type IndexerOptions } from '../index/run.js';
import { updateGraph } from '../graph/build.js';
import { indexCounts } from '../store/counts.js';
import { watchFolder, type FolderWatch } from '../jobs/watch.js';
import { FolderJobs, type FolderJob, type JobControl } from '../jobs/folder-jobs.js';
import { checkLibraryRoot } from '../library/roots.js';
import { checkScope, EMPTY_SCOPE, scopeFilter, type FolderScope } from '../library/scope.js';
import { completePath, type PathCompletion } from '../library/complete-path.js';
import { NotFoundError } from '../errors.js';
import { deleteFolder, documentRoots, documentStates, forgetContentHashes, getFolder, listFolders, noteCounts, removeDocumentsUnder, saveFolder, setFolderScope } from '../store/library.js';
import type { FolderSummary, IndexReport } from '../api.js';
import type { IndexProgress } from '../types.js';
import { errorText, type EngineContext } from './engine-context.js';
import type { EmbedderService } from './embedder-service.js';
import type { LanguageModel } from './language-model.js';

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

export interface WatchCallbacks {
  onReport?: (r: IndexReport) => void;
  onProgress?: (p: IndexProgress) => void;
  /** A failed run or a failure of the watcher itself. */
  onError?: (e: Error) => void;
}

export class LibraryService {
  private readonly jobs = new FolderJobs();
  private readonly watches = new Map<string, Set<FolderWatch>>();
  /** Saved folders that cannot be indexed or watched (e.g. /proc saved by an older Loci), with the reason. */
  private readonly refused = new Map<string, string>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly embedders: EmbedderService,
    private readonly model: LanguageModel,
    /** The index changed: retrieval is warmed up again once it settles. */
    private readonly changed: () => void,
  ) {
    this.checkSavedFolders();
  }

  /** Library folders that can be indexed and watched (refused ones are listed by folders()). */
  roots(): string[] {
    return listFolders(this.ctx.db)
      .map((f) => f.root)
      .filter((r) => !this.refused.has(r));
  }

  folders(): FolderSummary[] {
    const { db } = this.ctx;
    const counts = noteCounts(db);
    const saved = listFolders(db);
    // A folder whose first run was interrupted (Loci closed or was killed) has notes but is not saved yet.
    const interrupted = documentRoots(db)
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

  /** Whether a folder's fast pass is writing the index now. */
  fastPassRunning(): boolean {
    return this.jobs.anyInFastPass();
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
    return this.startJob(abs, { waitForWriter: this.ctx.writer.wait, ...opts }).done;
  }

  /** Starts the folder's job; throws when the folder is invalid or a job for it is running. */
  startJob(root: string, opts: JobOptions & IndexerOptions = {}): FolderJob {
    this.ctx.assertWritable('index a folder');
    if (!opts.waitForWriter) this.ctx.writer.assertFree();
    const abs = checkLibraryRoot(root);
    return this.jobs.start(abs, (control) => this.runJob(abs, control, opts), this.ctx.untilClosed(opts.signal));
  }

  /** Cancels the folder's job; its final report says cancelled. */
  cancelJob(root: string): boolean {
    const job = this.jobs.get(resolve(root));
    job?.cancel();
    return Boolean(job);
  }

  /** Starts a job on every library folder that has none (a newly chosen model); failures reach listeners as events. */
  indexAll(): void {
    for (const root of this.roots()) {
      if (!this.jobs.get(root)) void this.index(root).catch(() => undefined);
    }
  }

  /** Removes a library folder and everything it contributed; stops its job and watchers first. */
  async removeFolder(root: string): Promise<{ removed: number }> {
    const { ctx } = this;
    ctx.assertWritable('remove a folder');
    ctx.writer.assertFree();
    const abs = resolve(root);
    if (!getFolder(ctx.db, abs) && !documentRoots(ctx.db).includes(abs)) throw new NotFoundError(`${abs} is not a library folder.`);
    await this.unwatch(abs);
    await this.jobs.stop(abs);
    return ctx.serialised(async () => {
      const removed = removeDocumentsUnder(ctx.db, abs);
      deleteFolder(ctx.db, abs);
      this.refused.delete(abs);
      await updateGraph(ctx.db, this.embedders.embedder, this.embedders.indexDefaults());
      return { removed };
    }, `removing ${abs} from the library`);
  }

  /** Sets a folder's include/exclude globs and starts its job (notes now left out are removed by its scan). */
  async setScope(root: string, scope: FolderScope): Promise<FolderJob> {
    this.ctx.assertWritable('change a folder scope');
    this.ctx.writer.assertFree();
    const abs = resolve(root);
    if (!getFolder(this.ctx.db, abs)) throw new NotFoundError(`${abs} is not a library folder; index it first.`);
    const checked = checkScope(scope);
    await this.jobs.stop(abs);
    await this.ctx.serialised(async () => setFolderScope(this.ctx.db, abs, checked), `changing the scope of ${abs}`);
    // A watcher may have started a run in between (with the new scope or not): restart it with this one.
    if (await this.jobs.stop(abs)) await this.jobs.get(abs)?.done.catch(() => undefined);
    return this.startJob(abs);
  }

  /** Re-extracts a folder's notes (or one of them) even though they did not change. */
  reindex(root: string, docId?: number): FolderJob {
    const abs = resolve(root);
    if (!getFolder(this.ctx.db, abs)) throw new NotFoundError(`${abs} is not a library folder.`);
    if (docId !== undefined && !documentStates(this.ctx.db, docId).some((d) => d.root === abs)) throw new NotFoundError(`No note ${docId} in ${abs}.`);
    return this.startJob(abs, { redo: docId === undefined ? 'all' : { docId } });
  }

  /** Existing directories starting with `prefix`, for a folder field (see library/complete-path.ts). */
  completePath(prefix: string, opts: { hidden?: boolean } = {}): Promise<PathCompletion> {
    return completePath(prefix, opts);
  }

  /**
   * Keeps a folder's index current as files change; each change runs the folder's job (incremental).
   * Refuses system trees; links are not followed and the folder's scope applies.
   */
  watch(root: string, callbacks: WatchCallbacks = {}): FolderWatch {
    this.ctx.assertWritable('watch a folder');
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
      return this.startJob(abs, { onProgress: callbacks.onProgress, waitForWriter: true }).done;
    };
    const w = watchFolder(abs, runIndex, callbacks.onReport ?? (() => undefined), callbacks.onError, { excluded });
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

  /**
   * Watches a folder unless something watches it already (hosts call this for every library folder); the
   * watcher's failures reach listeners as the folder's error events.
   */
  keepWatching(root: string): void {
    const abs = resolve(root);
    if ((this.watches.get(abs)?.size ?? 0) > 0) return;
    this.watch(abs, { onError: (err) => this.ctx.events.publish({ type: 'error', root: abs, message: err.message }) });
  }

  /** Stops jobs (each writes its current note whole) and watchers. */
  async close(): Promise<void> {
    await this.jobs.stopAll();
    await Promise.all([...this.watches.keys()].map((root) => this.unwatch(root)));
  }

  private async unwatch(root: string): Promise<void> {
    const set = this.watches.get(root);
    this.watches.delete(root);
    await Promise.all([...(set ?? [])].map((w) => w.close()));
  }

  private scopeOf(root: string): FolderScope {
    const f = getFolder(this.ctx.db, root);
    return f ? { include: f.include, exclude: f.exclude } : EMPTY_SCOPE;
  }

  /** A folder saved by an older Loci may be a system tree (/proc): it is skipped, never scanned or watched. */
  private checkSavedFolders(): void {
    for (const { root } of listFolders(this.ctx.db)) {
      try {
        checkLibraryRoot(root);
      } catch (err) {
        this.refused.set(root, errorText(err));
        this.ctx.events.warn(`Library folder ${root} is skipped: ${errorText(err)} Remove it from the library.`);
      }
    }
  }

  private async runJob(root: string, control: JobControl, opts: JobOptions & IndexerOptions): Promise<IndexReport> {
    const { ctx } = this;
    const { events } = ctx;
    const started = performance.now();
    const onProgress = (progress: IndexProgress) => {
      opts.onProgress?.(progress);
      events.publish({ type: 'progress', root, progress });
    };
    const onNotice = (message: string) => {
      events.warn(message);
      opts.onNotice?.(message);
    };
    const { signal } = control;
    const wasSaved = getFolder(ctx.db, root) !== undefined;
    const scope = this.scopeOf(root);
    try {
      const fast = await ctx.serialised(async () => {
        if (opts.redo) forgetContentHashes(ctx.db, root, opts.redo === 'all' ? undefined : opts.redo.docId);
        const report = await indexFolder(ctx.db, this.embedders.embedder, root, { ...this.embedders.indexDefaults(), ...opts, excluded: scopeFilter(scope), onProgress, onNotice, signal });
        saveFolder(ctx.db, root);
        return report;
      }, `indexing ${root}`, signal);
      this.refused.delete(root);
      control.searchable(fast);
      this.changed();

      control.setPhase('model');
      const model = await this.model.folderPass(root, onProgress, signal, control);
      const report: IndexReport = { ...fast, counts: indexCounts(ctx.db), seconds: (performance.now() - started) / 1000 };
      if (model) report.model = model.summary;
      if (model?.cancelled) report.cancelled = true;
      if (model) this.changed();
      events.publish({ type: 'report', root, report });
      return report;
    } catch (err) {
      if (!signal.aborted) {
        if (!wasSaved) await this.forgetUnsaved(root);
        events.publish({ type: 'error', root, message: errorText(err) });
        throw err;
      }
      // Cancelled by the user in the fast pass: a folder that was not in the library leaves nothing
      // behind. Stopped because Loci is closing: what was written stays, so the next run resumes it.
      if (!wasSaved && !ctx.isClosing && !opts.keepPartial) await this.forgetUnsaved(root);
      const report: IndexReport = {
        root,
        counts: indexCounts(ctx.db),
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
      events.publish({ type: 'report', root, report });
      return report;
    }
  }

  /** Rows a failed or cancelled first run of a folder wrote go with it: only library folders keep notes. */
  private async forgetUnsaved(root: string): Promise<void> {
    const { ctx } = this;
    if (getFolder(ctx.db, root)) return;
    await ctx.serialised(async () => {
      if (removeDocumentsUnder(ctx.db, root) > 0) await updateGraph(ctx.db, this.embedders.embedder, this.embedders.indexDefaults());
    });
  }
}
