// A change of embedder under way (Settings, or "Use for search" under Models): the index is re-embedded
// for the new model, which can take minutes on a big library, so its progress shows here; then which
// embedder search uses, or why the change failed (the previous embedder stays).
import { useEffect, useRef, useState } from 'react';
import type { EventPayload } from '../../../main/contract/contract.js';
import { useApp } from '../lib/app-context.js';
import { formatEta } from '../lib/format.js';
import { PHASE_LABEL } from './IndexProgress.js';
import { ErrorBox, Notice, ProgressBar, ui } from './ui.js';

type Switch = EventPayload<'embedder.switch'>;

/** `initial`: the switch under way when the view opened (stats.switching), until its next event. */
export function EmbedderSwitchStatus({ initial, onSettled }: { initial: Switch | null; onSettled(): void }) {
  const { client } = useApp();
  const [heard, setEvent] = useState<Switch | null>(null);
  const event = heard ?? initial;
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });

  useEffect(
    () =>
      client.on('embedder.switch', (e) => {
        setEvent(e);
        if (e.state !== 'running') settled.current();
      }),
    [client],
  );

  if (!event) return null;
  if (event.state === 'failed' && event.answering)
    return (
      <ErrorBox
        error={`Search uses ${event.id}, but embedding PG-RAG's fact paths for it stopped: ${event.message ?? 'it failed'}. The next index run of a folder finishes them.`}
      />
    );
  if (event.state === 'failed') return <ErrorBox error={`The embedder was not changed to ${event.id}: ${event.message ?? 'it failed'}. Search goes on with the previous one.`} />;
  if (event.state === 'done')
    return (
      <div role="status" data-testid="embedder-switch">
        <Notice>Search now uses {event.id}: every note is embedded with it.</Notice>
      </div>
    );
  const p = event.progress;
  const phase = p && p.phase !== 'done' && p.phase in PHASE_LABEL ? PHASE_LABEL[p.phase as keyof typeof PHASE_LABEL] : null;
  const counts = p && phase ? ` — ${phase}: ${p.done.toLocaleString()} / ${p.total.toLocaleString()} ${formatEta(p.etaSeconds)}` : '…';
  if (event.answering)
    return (
      <div className={ui.stack} data-testid="embedder-switch">
        <ProgressBar value={p?.done ?? 0} max={p?.total ?? 0} label={`Embedding PG-RAG's fact paths for ${event.id}`} />
        <span className={ui.muted} aria-live="polite">
          Search uses {event.id}. Embedding PG-RAG&apos;s fact paths for it{counts}; the pgr method and the pseudo-graph of related notes catch up when it is done. Notes you edit meanwhile are searchable at once.
        </span>
      </div>
    );
  return (
    <div className={ui.stack} data-testid="embedder-switch">
      <ProgressBar value={p?.done ?? 0} max={p?.total ?? 0} label={`Re-embedding the index for ${event.id}`} />
      <span className={ui.muted} aria-live="polite">
        Re-embedding your notes for {event.id}
        {counts}. Questions use the previous embedder until then; notes you edit meanwhile are indexed as usual.
      </span>
    </div>
  );
}
