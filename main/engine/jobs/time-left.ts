// Time left in a phase from the rate so far, smoothed: the rate is an average that forgets with a
// half-life, so one slow note (or a burst of short texts) does not make "about 4 min left" jump to 9 and
// back, while a lasting change of pace (the machine got busy) still shows within a few half-lives.

export interface TimeLeftState {
  /** Share of the phase's work done (0–1) and seconds since it started, at the last update. */
  work: number;
  elapsed: number;
  /** Smoothed work per second; null until some work is done. */
  rate: number | null;
  /** Seconds left at that rate; null while unknown. */
  left: number | null;
}

export const TIME_LEFT_START: TimeLeftState = { work: 0, elapsed: 0, rate: null, left: null };

/** Seconds of history the rate halves its weight over. */
const HALF_LIFE_SECONDS = 10;

/** The state after `work` of the phase is done `elapsed` seconds into it. */
export function nextTimeLeft(prev: TimeLeftState, work: number, elapsed: number, halfLife = HALF_LIFE_SECONDS): TimeLeftState {
  if (work >= 1) return { work: 1, elapsed, rate: prev.rate, left: 0 };
  const dt = elapsed - prev.elapsed;
  if (work <= 0 || elapsed <= 0 || dt <= 0) return { ...prev, left: prev.rate ? (1 - Math.max(0, prev.work)) / prev.rate : null };
  // The first rate is the average so far; after that each interval's rate weighs by how long it lasted.
  const rate = prev.rate === null ? work / elapsed : prev.rate + (1 - 2 ** (-dt / halfLife)) * ((work - prev.work) / dt - prev.rate);
  if (!(rate > 0)) return { work, elapsed, rate: prev.rate, left: prev.left };
  return { work, elapsed, rate, left: (1 - work) / rate };
}
