// The language model: opened on first use and kept while its settings stand (loading a model is the
// slow part), and the model pass that rewrites what fast mode extracted, then the graph.
import type { LlmProvider } from '../llm/provider.js';
import type { RefineReport } from '../extract/llm/refine.js';
import type { JobControl } from '../jobs/folder-jobs.js';
import { indexedIdsUnder } from '../store/library.js';
import { updateGraph } from '../graph/build.js';
import type { ModelPassSummary } from '../api.js';
import type { IndexProgress } from '../types.js';
import { errorText, type EngineContext } from './engine-context.js';
import type { EmbedderService } from './embedder-service.js';

export class LanguageModel {
  /** The model provider and the settings it was opened with: changing them in Settings replaces it. */
  private opening: { key: string; spec: string; provider: Promise<LlmProvider> } | null = null;

  constructor(
    private readonly ctx: EngineContext,
    private readonly embedders: EmbedderService,
    /** `--model` on the command line: it wins over the 'model' setting. */
    readonly override: string | undefined,
  ) {}

  /** The model spec in force ('--model', else the 'model' setting), or null in fast mode. */
  spec(): string | null {
    return this.override ?? (this.ctx.settings().model || null);
  }

  /** The spec of a model opened under an earlier setting, still in use until it is replaced. */
  get openedSpec(): string | undefined {
    return this.opening?.spec;
  }

  /** The language model, opened on first use and kept while its settings stand; null in fast mode. */
  async provider(): Promise<LlmProvider | null> {
    const spec = this.spec();
    const { threads, sequences } = this.ctx.settings();
    const tuning = { threads, sequences };
    const key = spec ? JSON.stringify([spec, tuning]) : null;
    if (this.opening && this.opening.key !== key) {
      const previous = this.opening.provider;
      this.opening = null;
      await (await previous.catch(() => null))?.close();
    }
    if (!spec || !key) return null;
    if (!this.opening) {
      const opening = { key, spec, provider: import('../llm/open.js').then(({ openLlm }) => openLlm(spec, tuning)) };
      // A model that fails to open is tried again next time rather than remembered as broken.
      opening.provider.catch(() => {
        if (this.opening === opening) this.opening = null;
      });
      this.opening = opening;
    }
    return this.opening.provider;
  }

  /**
   * The model pass over every indexed note (folder jobs run it per folder): notes that fast mode made
   * searchable are rewritten by the model, then re-embedded and re-fused. Returns null in fast mode.
   */
  refine(opts: { onProgress?: (p: IndexProgress) => void; signal?: AbortSignal } = {}): Promise<RefineReport | null> {
    this.ctx.assertWritable('run the model pass');
    return this.ctx.serialised(async () => {
      const llm = await this.provider();
      return llm ? this.refineWith(llm, opts) : null;
    });
  }

  /** A folder's model pass and graph update; null in fast mode. A cancel returns what was done. */
  async folderPass(
    root: string,
    onProgress: (p: IndexProgress) => void,
    signal: AbortSignal,
    control: JobControl,
  ): Promise<{ summary: ModelPassSummary; cancelled: boolean } | null> {
    if (!this.spec()) return null;
    const t0 = performance.now();
    const docIds = indexedIdsUnder(this.ctx.db, root);
    // Loading a model takes seconds: say so before the first note's progress.
    onProgress({ phase: 'llm', done: 0, total: docIds.length, etaSeconds: null, current: 'loading the model' });
    let llm: LlmProvider | null;
    try {
      llm = await this.provider();
    } catch (err) {
      const summary = noModelPass(0, `the model could not be loaded: ${errorText(err)}`);
      this.ctx.events.warn(`Model pass for ${root}: ${summary.error}`);
      return { summary, cancelled: false };
    }
    if (!llm) return null;
    try {
      const report = await this.ctx.serialised(() => this.refineWith(llm, { onProgress, signal, docIds }, control));
      return { summary: summarise(report, t0, null), cancelled: false };
    } catch (err) {
      const seconds = (performance.now() - t0) / 1000;
      if (signal.aborted) return { summary: noModelPass(seconds, null), cancelled: true };
      return { summary: noModelPass(seconds, errorText(err)), cancelled: false };
    }
  }

  async close(): Promise<void> {
    if (this.opening) await (await this.opening.provider.catch(() => null))?.close();
  }

  private async refineWith(
    llm: LlmProvider,
    opts: { onProgress?: (p: IndexProgress) => void; signal?: AbortSignal; docIds?: number[] },
    control?: JobControl,
  ): Promise<RefineReport> {
    const { refineIndex } = await import('../extract/llm/refine.js');
    const signal = this.ctx.untilClosed(opts.signal);
    const { embedder } = this.embedders;
    // The graph step below embeds the rewritten notes' rows (they are marked pending), with progress.
    const report = await refineIndex(this.ctx.db, embedder, llm, { ...opts, signal, embed: false });
    control?.setPhase('graph');
    await updateGraph(this.ctx.db, embedder, { ...this.embedders.indexDefaults(), onProgress: opts.onProgress, signal });
    return report;
  }
}

/** A model pass that refined nothing: it could not start, failed, or was cancelled. */
function noModelPass(seconds: number, error: string | null): ModelPassSummary {
  return { extractor: null, refined: 0, cached: 0, reusedPieces: 0, failed: 0, seconds, error };
}

function summarise(r: RefineReport, t0: number, error: string | null): ModelPassSummary {
  return { extractor: r.extractor, refined: r.refined, cached: r.cached, reusedPieces: r.reusedPieces, failed: r.failed.length, seconds: (performance.now() - t0) / 1000, error };
}
