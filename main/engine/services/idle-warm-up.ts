// Builds retrieval's index-wide structures in idle time, once the index has not changed for
// WARM_UP_DELAY_MS (a watched folder saved every few seconds is warmed once it settles), so the next
// question does not pay for them. Never keeps the process alive; a failure only costs that question.
import { warmRetrieval } from '../retrieve/warm-up.js';
import { getLogger } from '../log.js';
import type { RetrievalMethod } from '../types.js';
import { errorText, type EngineContext } from './engine-context.js';
import type { EmbedderService } from './embedder-service.js';

/**
 * How long the index must stay unchanged before retrieval is warmed up: an editor that saves every second
 * or two while someone types re-indexes the note each time, and each warm-up of a 10k-note library costs
 * the engine 0.6–1.2 s (what is kept per note outlasts the edit; the first in a process, 2.5 s).
 */
const WARM_UP_DELAY_MS = 3000;

export class IdleWarmUp {
  private timer: NodeJS.Timeout | null = null;
  private warming: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: EngineContext,
    private readonly embedders: EmbedderService,
    /** Whether a fast pass is writing the index now: it would change the index under the warm-up (and schedules one when it ends). */
    private readonly busy: () => boolean,
  ) {}

  /** (Re)starts the quiet period after the index changed. */
  schedule(): void {
    if (this.ctx.isClosing) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.now(), WARM_UP_DELAY_MS);
    this.timer.unref();
  }

  /** Runs a warm-up that is waiting for the index to settle now, and resolves when none is under way (tests, benchmarks). */
  async settled(): Promise<void> {
    if (this.timer) this.now();
    await this.warming;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.warming;
  }

  private now(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.warming = this.warmUp();
  }

  private async warmUp(): Promise<void> {
    if (this.ctx.isClosing || this.busy()) return;
    try {
      // Values read back from snapshots at open are derived now, with the per-note parts an edit reuses.
      this.embedders.indexCache.endSnapshotReads();
      await warmRetrieval(this.embedders.retrievalContext, this.ctx.settings().method as RetrievalMethod);
    } catch (err) {
      getLogger('engine').warn({ err: errorText(err) }, 'retrieval warm-up failed; the next question builds what it needs');
    }
  }
}
