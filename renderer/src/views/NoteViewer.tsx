import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { RelatedNotes } from '../components/RelatedNotes.js';
import { Button, ErrorBox, ui } from '../components/ui.js';
import { useApp, type NoteTarget } from '../lib/app-context.js';
import { lineRange } from '../lib/format.js';
import { blankFrontMatter, rehypeSourceLines } from '../lib/rehype-source-lines.js';
import { useCall } from '../lib/use-call.js';
import css from './NoteViewer.module.css';

const RAW_KEY = 'loci.noteViewer.raw';

export function NoteViewer({ target, onClose }: { target: NoteTarget; onClose(): void }) {
  const { client, openMindMap, openGraph, openNote, indexVersion } = useApp();
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
  const rehypePlugins = useMemo(() => [rehypeSanitize, [rehypeSourceLines, { from, to }]] as const, [from, to]);
  const components = useMemo(() => ({ a: linkFor(target.docPath, openNote), img: NoteImage }), [target.docPath, openNote]);

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
      <div className={css.path}>
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
        <div className={css.rendered} role="document" ref={body} data-testid="note-rendered" tabIndex={0} aria-label="Note">
          {markdown.frontMatter.length > 0 && (
            <details className={css.frontMatter}>
              <summary>Properties</summary>
              <pre>{markdown.frontMatter.join('\n')}</pre>
            </details>
          )}
          <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={rehypePlugins as never} skipHtml components={components}>
            {markdown.text}
          </Markdown>
        </div>
      )}
      <RelatedNotes docId={docId} />
    </aside>
  );
}

/** Links in a note: web links open outside the app; links to other notes open them here. */
function linkFor(fromPath: string, openNote: (t: NoteTarget) => void) {
  return function NoteLink({ href, children }: { href?: string; children?: ReactNode }) {
    if (!href) return <span>{children}</span>;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      return (
        <a href={href} target="_blank" rel="noreferrer noopener">
          {children}
        </a>
      );
    }
    const [file] = href.split('#');
    const resolved = file ? resolvePath(fromPath, decodeURIComponent(file)) : fromPath;
    const docPath = /\.(md|markdown|txt)$/i.test(resolved) ? resolved : `${resolved}.md`;
    return (
      <a
        href={`#${encodeURIComponent(docPath)}`}
        onClick={(e) => {
          e.preventDefault();
          openNote({ docPath });
        }}
      >
        {children}
      </a>
    );
  };
}

function resolvePath(from: string, rel: string): string {
  const parts = rel.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const seg of rel.replace(/^\//, '').split('/')) {
    if (seg === '..') parts.pop();
    else if (seg && seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/** Web images show; a note's local images cannot be served to the page, so they show as their alt text. */
function NoteImage({ src, alt }: { src?: string | Blob; alt?: string }) {
  if (typeof src === 'string' && /^data:image\//i.test(src)) return <img src={src} alt={alt ?? ''} loading="lazy" />;
  return <span className={css.localImage}>[image{alt ? `: ${alt}` : ''}]</span>;
}
