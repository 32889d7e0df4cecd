import cliProgress from 'cli-progress';
import type { IndexProgress } from '../engine/types.js';
import { termField } from './terminal.js';

/** A progress bar per indexing phase on a terminal; silence when output is piped or --json is set. */
export function progressReporter(enabled: boolean): { onProgress?: (p: IndexProgress) => void; stop: () => void } {
  if (!enabled || !process.stderr.isTTY) return { stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: '{phase} [{bar}] {percentage}% | {value}/{total} | ETA {left} | {current}', stream: process.stderr, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  let phase = '';
  return {
    onProgress: (p) => {
      if (p.phase === 'done') return;
      const total = Math.max(1, p.total);
      if (p.phase !== phase) {
        if (phase) bar.stop();
        phase = p.phase;
        bar.start(total, p.done, { phase: p.phase.padEnd(7), current: '', left: timeLeft(p.etaSeconds) });
      }
      bar.setTotal(total);
      // The engine's ETA, not the bar's own: it knows when items differ in cost (embedding: texts' lengths).
      bar.update(p.done, { current: termField((p.current ?? '').slice(-40)), left: timeLeft(p.etaSeconds) });
    },
    stop: () => {
      if (phase) bar.stop();
    },
  };
}

/** "45s", "12m 05s", "3h 33m"; "…" while the rate is unknown. */
export function timeLeft(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '…';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  const minutes = Math.round(s / 60);
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
