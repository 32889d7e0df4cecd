// A note's Markdown as the app renders it, in the note viewer and in an answer's passages: GitHub-flavoured,
// sanitized, raw HTML skipped; links to other notes open them in the app, web links outside it.
import { useMemo, type ReactNode } from 'react';
import Markdown, { type Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Res } from '../../../main/contract/contract.js';
import { useApp, type NoteTarget } from '../lib/app-context.js';
import { capNesting } from '../lib/cap-nesting.js';
import { remarkWikilinks, WIKILINK_HREF } from '../lib/remark-wikilinks.js';
import css from './NoteMarkdown.module.css';

export type RehypePlugins = NonNullable<Options['rehypePlugins']>;
/** The note's links as the engine resolved them (notes.links); absent where links are not followed (passages). */
export type ResolvedLinks = Res<'notes.links'>['links'];
const REMARK = [remarkGfm, remarkWikilinks];

const NONE: RehypePlugins = [];

/** `rehypePlugins` run after sanitizing (the note viewer marks the cited lines). */
export function NoteMarkdown({ docPath, text, rehypePlugins = NONE, links }: { docPath: string; text: string; rehypePlugins?: RehypePlugins; links?: ResolvedLinks | null }) {
  const { openNote } = useApp();
  const plugins = useMemo(() => [rehypeSanitize, ...rehypePlugins], [rehypePlugins]);
  const components = useMemo(() => ({ a: linkFor(docPath, openNote, links), img: NoteImage }), [docPath, openNote, links]);
  return (
    <Markdown remarkPlugins={REMARK} rehypePlugins={plugins} skipHtml components={components}>
      {capNesting(text)}
    </Markdown>
  );
}

/**
 * Links in a note: web links open outside the app; links to other notes open them here — a wikilink at the
 * note the engine resolved it to (shown as plain text, with why, when no note has that name).
 */
function linkFor(fromPath: string, openNote: (t: NoteTarget) => void, links: ResolvedLinks | null | undefined) {
  return function NoteLink({ href, children }: { href?: string; children?: ReactNode }) {
    if (!href) return <span>{children}</span>;
    if (href.startsWith(WIKILINK_HREF)) {
      const target = decodeURIComponent(href.slice(WIKILINK_HREF.length));
      const note = links?.find((l) => l.target === target)?.note;
      if (!note) {
        return (
          <span className={links ? css.deadLink : undefined} title={links ? `No note is named “${target}”` : undefined} data-testid={links ? 'dead-link' : undefined}>
            {children}
          </span>
        );
      }
      return (
        <a
          href={`#${encodeURIComponent(note.docPath)}`}
          data-testid="wikilink"
          title={note.docPath}
          onClick={(e) => {
            e.preventDefault();
            openNote({ docPath: note.docPath, docId: note.docId });
          }}
        >
          {children}
        </a>
      );
    }
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
    const known = links?.find((l) => l.target === docPath)?.note;
    return (
      <a
        href={`#${encodeURIComponent(docPath)}`}
        onClick={(e) => {
          e.preventDefault();
          openNote(known ? { docPath: known.docPath, docId: known.docId } : { docPath });
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

/** The typography of rendered note Markdown, for the element that holds a NoteMarkdown. */
export const noteMarkdownClass = css.markdown;
