import { useEffect, useRef } from 'react';
import { Button, ErrorBox, ui } from '../components/ui.js';
import { useApp, type NoteTarget } from '../lib/app-context.js';
import { lineRange } from '../lib/format.js';
import { useCall } from '../lib/use-call.js';
import css from './NoteViewer.module.css';

export function NoteViewer({ target, onClose }: { target: NoteTarget; onClose(): void }) {
  const { openMindMap, indexVersion } = useApp();
  const note = useCall('notes.text', { docPath: target.docPath, docId: target.docId }, [indexVersion]);
  const first = useRef<HTMLDivElement>(null);
  const from = target.lineFrom ?? null;
  const to = target.lineTo ?? from;
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    first.current?.scrollIntoView?.({ block: 'center' });
  }, [note.data, from, to]);
  useEffect(() => {
    closeRef.current?.focus();
  }, [target]);

  return (
    <aside className={css.panel} aria-label="Note" data-testid="note-viewer">
      <div className={css.bar}>
        <h2 className={css.title}>{note.data?.title ?? target.docPath}</h2>
        <Button size="small" onClick={() => openMindMap({ docPath: target.docPath, docId: target.docId })}>
          Mind map
        </Button>
        <Button size="small" onClick={onClose} aria-label="Close note (Escape)" ref={closeRef}>
          Close
        </Button>
      </div>
      <div className={css.path}>
        {target.docPath}
        {from !== null && ` · ${lineRange(from, to)}`}
      </div>
      <ErrorBox error={note.error} />
      {note.loading && !note.data && <p className={ui.muted}>Loading…</p>}
      {note.data && (
        <div className={css.lines} role="document">
          {note.data.lines.map((text, i) => {
            const n = i + 1;
            const cited = from !== null && to !== null && n >= from && n <= to;
            return (
              <div key={n} ref={cited && n === from ? first : undefined} className={`${css.line} ${cited ? css.cited : ''}`} data-line={n} data-cited={cited || undefined}>
                <span className={css.number}>{n}</span>
                <span>{text || ' '}</span>
              </div>
            );
          })}
        </div>
      )}
    </aside>
  );
}
