// Under an open note: its tags, and the notes that link to it (backlinks), each opening at the linking line.
import type { Res } from '../../../main/contract/contract.js';
import { useApp } from '../lib/app-context.js';
import { lineRange } from '../lib/format.js';
import { ui } from './ui.js';
import css from './RelatedNotes.module.css';

export function Backlinks({ links, error }: { links: Res<'notes.links'> | null; error: unknown }) {
  const { openNote, openSwitcher } = useApp();
  if (error) return null; // the note viewer's error box says what went wrong
  return (
    <section className={css.panel} aria-labelledby="backlinks-heading" data-testid="backlinks">
      {links && links.tags.length > 0 && (
        <p className={ui.row} data-testid="note-tags" aria-label="Tags">
          {links.tags.map((t) => (
            <button key={t} type="button" className={css.tag} onClick={() => openSwitcher('note', `#${t}`)} title={`Find notes tagged #${t}`}>
              #{t}
            </button>
          ))}
        </p>
      )}
      <h3 id="backlinks-heading" className={css.heading}>
        Linked from{links ? ` (${links.backlinks.length})` : ''}
      </h3>
      {links === null ? (
        <p className={ui.muted}>Finding the notes that link here…</p>
      ) : links.backlinks.length === 0 ? (
        <p className={ui.muted}>No note links here.</p>
      ) : (
        <ul className={css.list}>
          {links.backlinks.map((b) => (
            <li key={b.docId} data-testid="backlink">
              <button type="button" className={css.link} onClick={() => openNote({ docPath: b.docPath, docId: b.docId, lineFrom: b.line, lineTo: b.line })}>
                {b.title || b.docPath}
              </button>{' '}
              <span className={ui.muted}>
                {b.docPath} · {lineRange(b.line, b.line)}
                {b.count > 1 ? ` · ${b.count} links` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
