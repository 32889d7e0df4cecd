// One folder's live index run: the current phase with counts and ETA, every phase's last counts, and
// during the model pass the note being written with its own ETA. Cancel is always at hand.
import type { FolderActivity } from '../lib/use-library-activity.js';
import { formatEta } from '../lib/format.js';
import { Button, ProgressBar, ui } from './ui.js';
import views from '../views/views.module.css';

const PHASES = ['scan', 'parse', 'extract', 'embed', 'graph', 'llm'] as const;
export const PHASE_LABEL: Record<(typeof PHASES)[number], string> = {
  scan: 'Scan',
  parse: 'Parse',
  extract: 'Extract',
  embed: 'Embed',
  graph: 'Graph',
  llm: 'Model pass',
};

export function IndexProgress({ root, activity, onCancel }: { root: string; activity: FolderActivity; onCancel(): void }) {
  const progress = activity.progress;
  const phase = progress?.phase;
  const modelPass = phase === 'llm';
  return (
    <div className={ui.stack} data-testid="index-progress">
      <ProgressBar value={progress?.done ?? 0} max={progress?.total ?? 0} label={modelPass ? `Model pass over ${root}` : `Indexing ${root}`} />
      <span className={ui.row}>
        <span className={ui.muted} aria-live="polite" data-testid="index-status">
          {progress && phase && phase !== 'done'
            ? `${PHASE_LABEL[phase]}: ${progress.done.toLocaleString()} / ${progress.total.toLocaleString()} ${modelPass ? 'notes' : ''} ${formatEta(progress.etaSeconds)}`
            : 'Starting…'}
          {progress?.current ? ` · ${modelPass ? 'writing ' : ''}${progress.current}` : ''}
        </span>
        <Button size="small" onClick={onCancel} disabled={activity.cancelling} aria-label={`Cancel ${modelPass ? 'the model pass' : 'indexing'} of ${root}`}>
          {activity.cancelling ? 'Cancelling…' : 'Cancel'}
        </Button>
      </span>
      <ol className={views.phases} aria-label="Indexing phases">
        {PHASES.filter((p, i) => activity.phases[p] || (p !== 'llm' && i > PHASES.indexOf(phase as (typeof PHASES)[number]))).map((p) => {
          const ph = activity.phases[p];
          return (
            <li key={p} className={`${views.phase} ${phase === p ? views.phaseActive : ''}`}>
              <div className={views.phaseName}>{PHASE_LABEL[p]}</div>
              <div className={ui.muted}>{ph ? `${ph.done.toLocaleString()} / ${ph.total.toLocaleString()}` : 'waiting'}</div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
