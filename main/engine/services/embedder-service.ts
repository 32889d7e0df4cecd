// The embedder in force and the switch to another one: the index is re-embedded for the new model in
// the background and the embedder swapped only when what questions read is complete, so answers never
// compare vectors of two models. Owns the retrieval cache, which is per embedder.
import { createEmbedder } from '../embed/registry.js';
import type { Embedder } from '../embed/embedder.js';
import { KINDS_SEARCH_READS } from '../embed/embed-missing.js';
import type { OwnerKind } from '../store/embeddings.js';
import { IndexCache, type SnapshotUse } from '../retrieve/index-cache.js';
import type { RetrievalContext } from '../retrieve/retriever.js';
import { type IndexerOptions } from '../index/run.js';
import { embedWithProgress, needsReembedding, rememberGraphEmbedder, updateGraph } from '../graph/build.js';
import { writeSettings } from '../settings.js';
import { reportEngineError } from '../log.js';
import { UserError } from '../errors.js';
import type { EmbedderSwitch } from '../api.js';
import type { IndexProgress } from '../types.js';
import { errorText, type EngineContext } from './engine-context.js';

interface Switching {
  spec: string;
  done: Promise<void>;
  latest: EmbedderSwitch;
  cancel: AbortController;
  /** The new embedder answers (the switch's second stage: fact paths and the graph). */
  swapped: boolean;
}

export class EmbedderService {
  private cache: IndexCache;
  private switching: Switching | null = null;

  constructor(
    private readonly ctx: EngineContext,
    private current: Embedder,
    /** The spec the embedder was made from, so Settings can tell when it changes. */
    private currentSpec: string,
    private readonly snapshotUse: SnapshotUse,
    /** Called once the index is whole again for the new embedder (retrieval is warmed up for it). */
    private readonly onSwitched: () => void,
  ) {
    this.cache = new IndexCache(ctx.db, current, snapshotUse);
  }

  /** The embedder in force; a switch replaces it. */
  get embedder(): Embedder {
    return this.current;
  }

  get spec(): string {
    return this.currentSpec;
  }

  get indexCache(): IndexCache {
    return this.cache;
  }

  get retrievalContext(): RetrievalContext {
    return { db: this.ctx.db, embedder: this.current, cache: this.cache };
  }

  /** The spec a switch under way is moving to, or null. */
  get switchingTo(): string | null {
    return this.switching?.spec ?? null;
  }

  /** The last event of a switch under way, or null (stats). */
  get progress(): EmbedderSwitch | null {
    return this.switching?.latest ?? null;
  }

  /** What every index run and graph build takes from the settings and the embedder in force. */
  indexDefaults(): IndexerOptions {
    const s = this.ctx.settings();
    return {
      fusion: { topic: s.fusionTopic, fact: s.fusionFact },
      docNeighbours: s.docNeighbours,
      maxBytes: s.maxBytes,
      embedderSpec: this.currentSpec,
      graphRebuiltLater: this.switching !== null,
    };
  }

  /** While a switch embeds PG-RAG's fact paths for the model already answering, pgr reads those done so far. */
  factPathsNotice(): string | null {
    if (!this.switching?.swapped) return null;
    const p = this.switching.latest.progress;
    const share = p?.phase === 'embed' && p.total > 0 ? ` (${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')})` : '';
    return `The switch of embedder is still embedding PG-RAG's fact paths for the new model${share}: pgr searched those done so far.`;
  }

  /** Replaces the embedder (after running work finishes) and re-embeds the index for it. */
  async switchEmbedder(spec: string): Promise<void> {
    this.ctx.assertWritable('switch the embedder');
    if (this.switching?.spec === spec) return this.switching.done;
    if (spec === this.currentSpec) return;
    await this.switchTo(spec, await createEmbedder(spec));
  }

  /**
   * The settings name another embedder: it is loaded before anything is stored (`store` runs only when it
   * loads), a switch to a third one stops, and the new one's switch starts in the background.
   */
  async choose(wanted: string, store: () => void): Promise<void> {
    let next: Embedder | null = null;
    if (wanted !== this.currentSpec && wanted !== this.switching?.spec) {
      next = await createEmbedder(wanted).catch((err: unknown) => {
        throw new UserError(`Embedder '${wanted}' could not be loaded, so the setting was not changed: ${errorText(err)}`);
      });
    }
    try {
      store();
    } catch (err) {
      await next?.dispose?.();
      throw err;
    }
    // Another embedder chosen mid-switch (the one still in force, or a third) stops that switch: it would
    // otherwise run for hours and then swap in a model the settings no longer name.
    if (this.switching && this.switching.spec !== wanted) this.switching.cancel.abort(new Error(`'${wanted}' was chosen instead`));
    if (next) this.switchInBackground(wanted, next);
  }

  /** A switch whose end or failure reaches hosts as events (Settings, or a start resuming one: see LociEngine.open). */
  switchInBackground(spec: string, next: Embedder): void {
    void this.switchTo(spec, next).catch((err) => {
      reportEngineError('embedder', err);
      this.ctx.events.warn(`Embedder '${spec}': ${errorText(err)}`);
    });
  }

  /**
   * A switch that fails before the swap puts the setting back to the embedder in force, so Settings name
   * the one still answering — unless Loci is closing (the next start resumes the switch) or another
   * embedder has been chosen since. One that fails after it keeps the new embedder: its vectors for what
   * questions read are complete, and the next graph step embeds the fact paths left.
   */
  private switchTo(spec: string, next: Embedder): Promise<void> {
    const { ctx } = this;
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
      ctx.events.publish({ type: 'embedder', ...event });
    };
    // Declared before the work starts so its first event is kept as the switch's latest.
    const switching: Switching = {
      spec,
      done: Promise.resolve(),
      latest: { spec, id: next.id, state: 'running', progress: null },
      cancel: new AbortController(),
      swapped: false,
    };
    this.switching = switching;
    const signal = AbortSignal.any([ctx.closingSignal, switching.cancel.signal]);
    // Index runs are not held for hours behind the switch: texts are embedded outside the engine's queue
    // and each batch's vectors written in it, between other work. Rows an index run writes meanwhile are
    // found by the next pass (before the swap) or embedded by the run itself (after it).
    const lock = (write: () => Promise<void>) => ctx.serialised(write);
    const onProgress = (p: IndexProgress) => {
      if (!(p.phase === 'embed' && p.total === 0)) publish('running', p);
    };
    const embedUntilDone = async (kinds: readonly OwnerKind[]) => {
      while ((await embedWithProgress(ctx.db, next, { onProgress, signal, kinds, lock })) > 0);
    };
    const done = (async () => {
      await ctx.serialised(async () => signal.throwIfAborted()); // work under way first
      publish('running', null);
      const rebuild = needsReembedding(ctx.db, next);
      // What questions read is embedded for the new model first (vectors are kept per model), then the
      // swap: answers never see half of it. PG-RAG's fact paths, most of the work, and the graph follow.
      if (rebuild) await embedUntilDone(KINDS_SEARCH_READS);
      await ctx.serialised(async () => {
        signal.throwIfAborted();
        if (rebuild) await embedWithProgress(ctx.db, next, { onProgress, signal, kinds: KINDS_SEARCH_READS }); // written since the last pass
        const previous = this.current;
        this.currentSpec = spec;
        this.current = next;
        this.cache = new IndexCache(ctx.db, next, this.snapshotUse);
        switching.swapped = true;
        await previous.dispose?.();
      });
      if (rebuild) await embedUntilDone(['mm']);
      // Also without a rebuild (the graph was already this model's): notes an index run wrote just before
      // the swap left their graph step to the switch.
      await ctx.serialised(() => updateGraph(ctx.db, next, { ...this.indexDefaults(), graphRebuiltLater: false, onProgress, signal }));
      rememberGraphEmbedder(ctx.db, next, spec);
      this.onSwitched();
      publish('done', null);
    })().catch(async (err: unknown) => {
      if (this.current !== next) {
        if (!ctx.isClosing && ctx.settings().embedder === spec) writeSettings(ctx.db, { embedder: this.currentSpec });
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

  /** A switch stops after the batch it is embedding, which it writes: the next start goes on from there. */
  async close(): Promise<void> {
    await this.switching?.done.catch(() => undefined);
    await this.current.dispose?.();
    if (!this.ctx.readOnly) this.cache.saveSnapshots();
  }
}
