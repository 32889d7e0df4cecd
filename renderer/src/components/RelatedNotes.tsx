// Notes related to one note, each with why: a shared entity, a similar passage, a shared super-topic
// (notes.related). Shown beside the open note and beside each answer.
import { useEffect, useState } from 'react';
import { useApp } from '../lib/app-context.js';
import { available, callOptional, type RelatedNote } from '../lib/optional-calls.js';
import { lineRange } from '../lib/format.js';
import { ui } from './ui.js';
import css from './RelatedNotes.module.css';

const REASON_LABEL: Record<string, string> = {
  entity: 'shares',
  'shared-entity': 'shares',
  passage: 'similar passage',
  similar: 'similar passage',
  'similar-passage': 'similar passage',
  'super-topic': 'same topic',
  superTopic: 'same topic',
  link: 'links to it',
};

export function RelatedNotes({ docId, title = 'Related notes', limit = 8, compact }: { docId: number | undefined; title?: string; limit?: number; compact?: boolean }) {
  const { client, openNote, indexVersion } = useApp();
  const [related, setRelated] = useState<RelatedNote[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const can = available('notes.related');

  useEffect(() => {
    if (!can || docId === undefined) return;
    let live = true;
    setRelated(null);
    setError(null);
    callOptional<RelatedNote[] | { related: RelatedNote[] }>(client, 'notes.related', { docId, limit }).then(
      (r) => live && setRelated(Array.isArray(r) ? r : r.related),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [client, docId, limit, can, indexVersion]);

  const headingId = `related-${docId ?? 'none'}-${compact ? 'c' : 'f'}`;
  return (
    <section className={`${css.panel} ${compact ? css.compact : ''}`} aria-labelledby={headingId} data-testid="related-notes">
      <h3 id={headingId} className={css.heading}>
        {title}
      </h3>
      {!can ? (
        <p className={ui.muted}>Related notes need a newer engine (notes.related is not available).</p>
      ) : docId === undefined ? (
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
                    <span className={css.kind}>{REASON_LABEL[why.kind] ?? why.kind}</span> {why.text}
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
