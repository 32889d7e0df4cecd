// What the engine tells its hosts as work runs, and the problems it worked around: one list of
// listeners and one list of warnings, shared by every service.
import type { EmbedderSwitch, IndexReport } from '../api.js';
import type { IndexProgress } from '../types.js';

/** What the engine tells its host as jobs run: hosts forward these as contract events. */
export type EngineEvent =
  | { type: 'progress'; root: string; progress: IndexProgress }
  | { type: 'report'; root: string; report: IndexReport }
  | { type: 'error'; root: string; message: string }
  | { type: 'warning'; message: string }
  /** A switch of embedder (settings): the index re-embedded for it, then the swap; or why it failed. */
  | ({ type: 'embedder' } & EmbedderSwitch);

export class EngineEvents {
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private readonly warningList: string[] = [];

  /** Receives every job's progress, final report and error, and warnings; returns the unsubscribe. */
  subscribe(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Problems the engine worked around (a stored embedder that fails, a refused folder, read-only), and notices such as notes re-extracted after an upgrade. */
  warnings(): string[] {
    return [...this.warningList];
  }

  warn(message: string): void {
    this.warningList.push(message);
    this.publish({ type: 'warning', message });
  }

  publish(e: EngineEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // A host's listener failing must not stop a job.
      }
    }
  }
}
