// The engine as one object: it opens the index and the embedder and holds the services that own the
// rest — what the CLI, the browser-mode server and the Electron engine process drive. Each service's
// public methods are the engine's API; the host (main/host) maps the contract's calls onto them.
import { openIndex, type Db } from './store/db.js';
import { readOnlyNotice } from './read-only-index.js';
import { createEmbedder } from './embed/registry.js';
import type { Embedder } from './embed/embedder.js';
import { graphEmbedder, needsReembedding, rememberGraphEmbedder, updateGraph } from './graph/build.js';
import type { RetrievalContext } from './retrieve/retriever.js';
import { DEFAULT_SETTINGS, readSettings } from './settings.js';
import { judgeNoteLanguages } from './ingest/note-language.js';
import { EngineContext, errorText } from './services/engine-context.js';
import type { EngineEvents } from './services/engine-events.js';
import { EmbedderService } from './services/embedder-service.js';
import { IdleWarmUp } from './services/idle-warm-up.js';
import { LanguageModel } from './services/language-model.js';
import { LibraryService } from './services/library-service.js';
import { AskService } from './services/ask-service.js';
import { ViewsService } from './services/views-service.js';
import { SettingsService } from './services/settings-service.js';
import { EstimateService } from './services/estimate-service.js';

export { ReadOnlyIndexError } from './read-only-index.js';
export type { EngineEvent } from './services/engine-events.js';
export type { JobOptions } from './services/library-service.js';

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

export class LociEngine {
  /** Progress, reports, errors and warnings of every service: hosts subscribe here. */
  readonly events: EngineEvents;
  /** The embedder in force and a switch to another (Settings), with the retrieval cache it owns. */
  readonly embedders: EmbedderService;
  /** Retrieval's index-wide structures, built once the index has been quiet a while. */
  readonly warmUp: IdleWarmUp;
  /** The language model (opened on first use) and the model pass. */
  readonly model: LanguageModel;
  /** Folders, their jobs and scopes, and the one registry of watchers. */
  readonly library: LibraryService;
  /** Questions and the chats they make. */
  readonly answers: AskService;
  /** What the UI reads: notes, mind maps, note text, graphs, related notes, stats. */
  readonly views: ViewsService;
  readonly settings: SettingsService;
  /** How long indexing the library takes with each embedder, from timed probes. */
  readonly estimates: EstimateService;

  private constructor(
    private readonly ctx: EngineContext,
    embedder: Embedder,
    embedderSpec: string,
    modelOverride: string | undefined,
    oneOff: boolean,
  ) {
    this.events = ctx.events;
    // What retrieval derives from the whole index is read back from the last process's snapshots (index-cache.ts).
    this.embedders = new EmbedderService(ctx, embedder, embedderSpec, oneOff ? 'one-off' : 'until-warm', () => this.warmUp.schedule());
    this.warmUp = new IdleWarmUp(ctx, this.embedders, () => this.library.fastPassRunning());
    this.model = new LanguageModel(ctx, this.embedders, modelOverride);
    this.library = new LibraryService(ctx, this.embedders, this.model, () => this.warmUp.schedule());
    this.answers = new AskService(ctx, this.embedders, this.model);
    this.views = new ViewsService(ctx, this.embedders, () => this.library.roots());
    this.settings = new SettingsService(ctx, this.embedders, this.model, this.library);
    this.estimates = new EstimateService(ctx, () => this.library.roots());
  }

  static async open(opts: EngineOptions): Promise<LociEngine> {
    const opened = openIndex(opts.dbPath, { readOnly: opts.readOnly });
    const { db } = opened;
    const readOnly = opened.readOnly !== null;
    try {
      const ctx = new EngineContext(db, opts.dbPath, readOnly);
      const stored = readSettings(db).embedder;
      let spec = opts.embedder ?? stored;
      let embedder: Embedder;
      try {
        embedder = await createEmbedder(spec);
      } catch (err) {
        // Asked for on the command line: the caller should hear it. Stored: the index must still open.
        if (opts.embedder !== undefined) throw err;
        ctx.events.warn(`The embedder in Settings ('${stored}') could not be loaded (${errorText(err)}); using the built-in one until Settings name one that loads.`);
        spec = DEFAULT_SETTINGS.embedder;
        embedder = await createEmbedder(spec);
      }
      if (opened.readOnly) ctx.events.warn(readOnlyNotice(db, opts.dbPath, opened.readOnly));
      // A switch of embedder that Loci was closed during: the previous embedder answers again at once and
      // the switch goes on in the background (its progress in Settings), instead of this start waiting
      // for the rest of it (hours, on a big library with a real embedder).
      const previous = !readOnly && opts.embedder === undefined && needsReembedding(db, embedder) ? await loadGraphEmbedder(db) : null;
      const engine = new LociEngine(ctx, previous?.embedder ?? embedder, previous?.spec ?? spec, opts.model, opts.oneOff ?? false);
      ctx.writer.wait = opts.waitForWriter ?? true;
      // What an open writes, only while no other Loci process writes: an `ask` never waits for an index run.
      const writes = !readOnly && ctx.writer.tryTake('opening the index');
      try {
        if (writes) await judgeNoteLanguages(db);
        if (previous) {
          if (opts.resumeSwitch ?? true) engine.embedders.switchInBackground(spec, embedder);
          else {
            await embedder.dispose?.();
            ctx.events.warn(`Search uses ${previous.embedder.id}: the switch to '${spec}' is not finished; it goes on when the app, loci serve or loci watch opens this index.`);
          }
          return engine;
        }
        // An index made with another embedder (an upgrade of the built-in one, or a switch whose previous
        // embedder no longer loads) has no vectors this one can compare with: re-embed and rebuild the
        // graph before anything is asked.
        if (needsReembedding(db, engine.embedder)) {
          if (readOnly) ctx.events.warn(`The index was built with another embedder than ${engine.embedder.id}; open it writable to re-embed it.`);
          // Else another Loci process is writing it (its first run, usually), and its graph step does this.
          else if (writes) await updateGraph(db, engine.embedder, engine.embedders.indexDefaults());
        }
        if (writes) rememberGraphEmbedder(db, engine.embedder, spec);
      } finally {
        if (writes) ctx.writer.release();
      }
      engine.warmUp.schedule();
      return engine;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  get db(): Db {
    return this.ctx.db;
  }

  get dbPath(): string {
    return this.ctx.dbPath;
  }

  get readOnly(): boolean {
    return this.ctx.readOnly;
  }

  /** The embedder in force; a switch of embedder (Settings) replaces it. */
  get embedder(): Embedder {
    return this.embedders.embedder;
  }

  get retrievalContext(): RetrievalContext {
    return this.embedders.retrievalContext;
  }

  /** Stops jobs, watchers and the warm-up, lets queued writes and a switch's current batch finish, then closes the index. */
  async close(): Promise<void> {
    this.ctx.abort();
    await this.warmUp.close();
    await this.library.close();
    await this.ctx.idle();
    await this.model.close();
    await this.embedders.close();
    this.ctx.db.close();
  }
}

/** The embedder the graph was last built with, loaded again, when it still loads as the same model. */
async function loadGraphEmbedder(db: Db): Promise<{ spec: string; embedder: Embedder } | null> {
  const built = graphEmbedder(db);
  if (!built) return null;
  const embedder = await createEmbedder(built.spec).catch(() => null);
  if (embedder?.id === built.id) return { spec: built.spec, embedder };
  await embedder?.dispose?.();
  return null;
}
