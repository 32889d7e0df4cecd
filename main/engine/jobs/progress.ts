import type { IndexPhase, IndexProgress } from '../types.js';

/** Emits progress for one phase with an ETA from the observed rate; throttled so callers may tick per item. */
export function phaseProgress(phase: IndexPhase, total: number, emit?: (p: IndexProgress) => void, minIntervalMs = 100) {
  const started = performance.now();
  let last = 0;
  const send = (done: number, current?: string, force = false) => {
    if (!emit) return;
    const now = performance.now();
    // Small runs report every item (each may be a visible file); large ones are throttled.
    if (!force && total > 200 && now - last < minIntervalMs && done < total) return;
    last = now;
    const elapsed = (now - started) / 1000;
    const etaSeconds = done > 0 && total > done ? Math.round(((total - done) * elapsed) / done) : done >= total ? 0 : null;
    emit({ phase, done, total, etaSeconds, current });
  };
  send(0, undefined, true);
  return {
    tick: (done: number, current?: string) => send(done, current),
    finish: () => send(total, undefined, true),
  };
}
