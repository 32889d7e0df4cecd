import { useEffect, useMemo, useRef, useState } from 'react';
import { NoteMarkdown, noteMarkdownClass, type RehypePlugins } from '../components/NoteMarkdown.js';
import { Backlinks } from '../components/Backlinks.js';
import { RelatedNotes } from '../components/RelatedNotes.js';
import { Button, ErrorBox, ui } from '../components/ui.js';
import { useApp, type NoteTarget } from '../lib/app-context.js';
import { lineRange } from '../lib/format.js';
import { blankFrontMatter, rehypeSourceLines } from '../lib/rehype-source-lines.js';
import { useCall } from '../lib/use-call.js';
import css from './NoteViewer.module.css';

const RAW_KEY = 'loci.noteViewer.raw';

export function NoteViewer({ target, onClose }: { target: NoteTarget; onClose(): void }) {
  const { client, openMindMap, openGraph, indexVersion } = useApp();
  const note = useCall('notes.text', { docPath: target.docPath, docId: target.docId }, [indexVersion]);
  const [raw, setRaw] = useState(() => localStorage.getItem(RAW_KEY) === '1');
  const [editorError, setEditorError] = useState<unknown>(null);
  const body = useRef<HTMLDivElement>(null);
  const from = target.lineFrom ?? null;
  const to = target.lineTo ?? from;
  const closeRef = useRef<HTMLButtonElement>(null);
  const docs = useCall('library.documents', target.docId === undefined ? {} : null, [indexVersion]);
  // Related notes need the note's id; an older link may carry only its path.
  const docId = target.docId ?? docs.data?.find((d) => d.relPath === target.docPath)?.id;
  const links = useCall('notes.links', docId === undefined ? null : { docId }, [indexVersion]);

  useEffect(() => {
    localStorage.setItem(RAW_KEY, raw ? '1' : '0');
  }, [raw]);
  useEffect(() => {
    body.current?.querySelector('[data-cited]')?.scrollIntoView?.({ block: 'center' });
  }, [note.data, from, to, raw]);
  useEffect(() => {
    closeRef.current?.focus();
  }, [target]);

  const markdown = useMemo(() => (note.data ? blankFrontMatter(note.data.lines) : null), [note.data]);
  const rehypePlugins = useMemo(() => [[rehypeSourceLines, { from, to }]] as RehypePlugins, [from, to]);

  async function openInEditor() {
    setEditorError(null);
    try {
      await client.call('host.openInEditor', { docPath: target.docPath, docId, line: from ?? undefined });
    } catch (err) {
      setEditorError(err);
    }
  }

  return (
    <aside className={css.panel} aria-label="Note" data-testid="note-viewer">
      <div className={css.bar}>
        <h2 className={css.title}>{note.data?.title ?? target.docPath}</h2>
        <Button size="small" onClick={() => setRaw((r) => !r)} aria-pressed={raw} title="Show the note's raw lines with line numbers">
          Raw lines
        </Button>
        <Button size="small" onClick={openInEditor} title="Open the note in your own editor">
          Open in editor
        </Button>
        <Button size="small" onClick={() => openMindMap({ docPath: target.docPath, docId })}>
          Mind map
        </Button>
        <Button size="small" onClick={() => openGraph({ docPath: target.docPath, docId })}>
          Graph
        </Button>
        <Button size="small" onClick={onClose} aria-label="Close note (Escape)" ref={closeRef}>
          Close
        </Button>
      </div>
      <div className={css.path} data-testid="note-viewer-path">
        {target.docPath}
        {from !== null && ` · ${lineRange(from, to)}`}
      </div>
      <ErrorBox error={note.error ?? editorError} />
      {note.loading && !note.data && <p className={ui.muted}>Loading…</p>}
      {note.data && raw && (
        <div className={css.lines} role="document" ref={body} data-testid="note-raw" tabIndex={0} aria-label="Note lines">
          {note.data.lines.map((text, i) => {
            const n = i + 1;
            const cited = from !== null && to !== null && n >= from && n <= to;
            return (
              <div key={n} className={`${css.line} ${cited ? css.cited : ''}`} data-line={n} data-cited={cited || undefined}>
                <span className={css.number}>{n}</span>
                <span>{text || ' '}</span>
              </div>
            );
          })}
        </div>
      )}
      {note.data && !raw && markdown && (
        <div className={`${css.rendered} ${noteMarkdownClass}`} role="document" ref={body} data-testid="note-rendered" tabIndex={0} aria-label="Note">
          {markdown.frontMatter.length > 0 && (
            <details className={css.frontMatter}>
              <summary>Properties</summary>
              <pre>{markdown.frontMatter.join('\n')}</pre>
            </details>
          )}
          <NoteMarkdown docPath={target.docPath} text={markdown.text} rehypePlugins={rehypePlugins} links={links.data?.links ?? null} />
        </div>
      )}
      <Backlinks links={links.data} error={links.error} />
      <RelatedNotes docId={docId} />
    </aside>
  );
}
