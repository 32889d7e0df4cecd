import type { IndexPhase, IndexProgress } from '../types.js';
import { nextTimeLeft, TIME_LEFT_START } from './time-left.js';

/**
 * Emits progress for one phase with an ETA from the observed rate, smoothed (time-left.ts); throttled so
 * callers may tick per item.
 * `work` (0–1), where items differ in cost, is the share of the phase's work done, which the ETA then
 * follows instead of the share of items.
 */
export function phaseProgress(phase: IndexPhase, total: number, emit?: (p: IndexProgress) => void, minIntervalMs = 100) {
  const started = performance.now();
  let last = 0;
  let left = TIME_LEFT_START;
  const send = (done: number, current?: string, force = false, work = done / Math.max(1, total)) => {
    if (!emit) return;
    const now = performance.now();
    // Small runs report every item (each may be a visible file); large ones are throttled.
    if (!force && total > 200 && now - last < minIntervalMs && done < total) return;
    last = now;
    const elapsed = (now - started) / 1000;
    left = nextTimeLeft(left, done >= total ? 1 : work, elapsed);
    const etaSeconds = left.left === null ? null : Math.round(left.left);
    emit({ phase, done, total, etaSeconds, current });
  };
  send(0, undefined, true);
  return {
    tick: (done: number, current?: string, work?: number) => send(done, current, false, work),
    finish: () => send(total, undefined, true),
  };
}

/** Adds the seconds since `since` to a run's time for `phase` (`loci bench-index` shows them). */
export function addTime(times: Record<string, number>, phase: string, since: number): void {
  times[phase] = (times[phase] ?? 0) + (performance.now() - since) / 1000;
}
