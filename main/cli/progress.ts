import cliProgress from 'cli-progress';
import type { IndexProgress } from '../engine/types.js';
import { termField } from './terminal.js';

/** A progress bar per indexing phase on a terminal; silence when output is piped or --json is set. */
export function progressReporter(enabled: boolean): { onProgress?: (p: IndexProgress) => void; stop: () => void } {
  if (!enabled || !process.stderr.isTTY) return { stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: '{phase} [{bar}] {percentage}% | {value}/{total} | ETA {eta_formatted} | {current}', stream: process.stderr, hideCursor: true, clearOnComplete: false },
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
        bar.start(total, p.done, { phase: p.phase.padEnd(7), current: '' });
      }
      bar.setTotal(total);
      bar.update(p.done, { current: termField((p.current ?? '').slice(-40)) });
    },
    stop: () => {
      if (phase) bar.stop();
    },
  };
}
