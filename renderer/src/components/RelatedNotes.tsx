// Notes related to one note, each with why: a shared entity, a similar passage, a shared super-topic
// (notes.related). Shown beside the open note and beside each answer.
import { useEffect, useState } from 'react';
import { useApp } from '../lib/app-context.js';
import type { Res } from '../../../main/contract/contract.js';
import { lineRange } from '../lib/format.js';
import { ui } from './ui.js';
import css from './RelatedNotes.module.css';

type RelatedNote = Res<'notes.related'>[number];

const REASON_LABEL: Record<RelatedNote['reasons'][number]['kind'], string> = {
  similar: 'Similar passage:',
  entity: 'Both mention',
  'super-topic': 'Same topic:',
};

export function RelatedNotes({ docId, title = 'Related notes', limit = 8, compact }: { docId: number | undefined; title?: string; limit?: number; compact?: boolean }) {
  const { client, openNote, indexVersion } = useApp();
  const [related, setRelated] = useState<RelatedNote[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (docId === undefined) return;
    let live = true;
    setRelated(null);
    setError(null);
    client.call('notes.related', { docId, limit }).then(
      (r) => live && setRelated(r),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, docId, limit, indexVersion]);

  const headingId = `related-${docId ?? 'none'}-${compact ? 'c' : 'f'}`;
  return (
    <section className={`${css.panel} ${compact ? css.compact : ''}`} aria-labelledby={headingId} data-testid="related-notes">
      <h3 id={headingId} className={css.heading}>
        {title}
      </h3>
      {docId === undefined ? (
        <p className={ui.muted}>Open a note to see its neighbours.</p>
      ) : error ? (
        <p className={ui.muted} role="alert">
          {error}
        </p>
      ) : related === null ? (
        <p className={ui.muted}>Finding related notes…</p>
      ) : related.length === 0 ? (
        <p className={ui.muted}>No related notes: nothing shares its entities, passages or topics.</p>
      ) : (
        <ul className={css.list}>
          {related.map((r) => (
            <li key={r.docId} data-testid="related-note">
              <button type="button" className={css.link} onClick={() => openNote({ docPath: r.docPath, docId: r.docId })}>
                {r.title || r.docPath}
              </button>
              <ul className={css.reasons} aria-label={`Why ${r.title || r.docPath} is related`}>
                {r.reasons.slice(0, 3).map((why, i) => (
                  <li key={i} data-testid="related-reason">
                    <span className={css.kind}>{REASON_LABEL[why.kind]}</span> {why.kind === 'similar' ? `“${clip(why.text)}”` : why.text}
                    {why.lineFrom != null && (
                      <button
                        type="button"
                        className={css.lines}
                        onClick={() => openNote({ docPath: r.docPath, docId: r.docId, lineFrom: why.lineFrom, lineTo: why.lineTo ?? why.lineFrom })}
                        aria-label={`Open ${r.title || r.docPath} at ${lineRange(why.lineFrom, why.lineTo ?? null)}`}
                      >
                        {lineRange(why.lineFrom, why.lineTo ?? null)}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function clip(text: string): string {
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}
