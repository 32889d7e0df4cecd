// Quick switcher (Ctrl+K / Ctrl+O): fuzzy search over every note's title, path and tags, from any view;
// a query starting with `#` searches tags only.
// A combobox over a listbox (WAI-ARIA pattern): arrows move, Enter opens the note, Alt+Enter (or the
// purpose the switcher was opened with) opens its mind map instead.
import fuzzysort from 'fuzzysort';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Res } from '../../../main/contract/contract.js';
import type { NoteRef } from '../lib/app-context.js';
import css from './QuickSwitcher.module.css';

type Doc = Res<'library.documents'>[number];
export type SwitcherPurpose = 'note' | 'mindmap' | 'graph';

const LIMIT = 50;

const PURPOSE_LABEL: Record<SwitcherPurpose, string> = {
  note: 'Open a note',
  mindmap: "Open a note's mind map",
  graph: "Show a note's local graph",
};

export function QuickSwitcher({
  docs,
  tags,
  initialQuery = '',
  purpose,
  onPick,
  onClose,
}: {
  docs: Doc[] | null;
  tags?: Res<'library.tags'> | null;
  initialQuery?: string;
  purpose: SwitcherPurpose;
  onPick(note: NoteRef, purpose: SwitcherPurpose): void;
  onClose(): void;
}) {
  const [query, setQuery] = useState(initialQuery);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const id = useId();
  const restoreFocus = useRef<Element | null>(null);

  const prepared = useMemo(() => {
    const tagsOf = new Map((tags ?? []).map((t) => [t.docId, t.tags]));
    return (docs ?? [])
      .filter((d) => d.status !== 'skipped')
      .map((d) => {
        const list = tagsOf.get(d.id) ?? [];
        return { doc: d, tagList: list, title: fuzzysort.prepare(d.title), path: fuzzysort.prepare(d.relPath), tags: fuzzysort.prepare(list.map((t) => `#${t}`).join(' ')) };
      });
  }, [docs, tags]);

  const results = useMemo(() => {
    const q = query.trim();
    const shown = (p: (typeof prepared)[number]) => p.tagList.map((t) => `#${t}`).join(' ');
    if (!q) return prepared.slice(0, LIMIT).map((p) => ({ doc: p.doc, title: <>{p.doc.title}</>, path: <>{p.doc.relPath}</>, tags: p.tagList.length ? <>{shown(p)}</> : null }));
    if (q.startsWith('#')) {
      // A tag search: notes carrying a tag that matches, best tag first.
      const found = fuzzysort.go(q, prepared, { key: 'tags', limit: LIMIT, threshold: 0.3 });
      return found.map((r) => ({ doc: r.obj.doc, title: <>{r.obj.doc.title}</>, path: <>{r.obj.doc.relPath}</>, tags: mark(r, shown(r.obj)) }));
    }
    // Title matches weigh more than path and tag matches: people remember what a note is called.
    const found = fuzzysort.go(q, prepared, {
      keys: ['title', 'path', 'tags'],
      limit: LIMIT,
      threshold: 0.2,
      scoreFn: (r) => Math.max((r[0]?.score ?? 0) * 1, (r[1]?.score ?? 0) * 0.85, (r[2]?.score ?? 0) * 0.8),
    });
    return found.map((r) => ({ doc: r.obj.doc, title: mark(r[0], r.obj.doc.title), path: mark(r[1], r.obj.doc.relPath), tags: mark(r[2], shown(r.obj)) }));
  }, [prepared, query]);

  useEffect(() => {
    restoreFocus.current = document.activeElement;
    inputRef.current?.focus();
    return () => (restoreFocus.current as HTMLElement | null)?.focus?.();
  }, []);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  function pick(i: number, alt: boolean) {
    const r = results[i];
    if (!r) return;
    onPick({ docPath: r.doc.relPath, docId: r.doc.id }, alt ? 'mindmap' : purpose);
  }

  function onKey(e: KeyboardEvent) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(results.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'PageDown') {
      e.preventDefault();
      setActive((a) => Math.min(results.length - 1, a + 10));
    } else if (e.key === 'PageUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 10));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      pick(active, e.altKey);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key === 'Tab') {
      // The dialog is modal: focus stays in the search field.
      e.preventDefault();
    }
  }

  const listId = `${id}-list`;
  return (
    <div className={css.backdrop} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className={css.dialog} role="dialog" aria-modal="true" aria-label={PURPOSE_LABEL[purpose]} data-testid="quick-switcher">
        <input
          ref={inputRef}
          className={css.input}
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={results[active] ? `${id}-opt-${active}` : undefined}
          aria-autocomplete="list"
          aria-label={`${PURPOSE_LABEL[purpose]}: type part of its title or path`}
          placeholder={`${PURPOSE_LABEL[purpose]} — type a title or path`}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKey}
          onBlur={(e) => {
            // A modal keeps focus: a view behind it that focuses itself when its content arrives (a long
            // note finishing its render) must not take the keys typed here.
            if (!e.currentTarget.closest('[role="dialog"]')?.contains(e.relatedTarget)) requestAnimationFrame(() => inputRef.current?.focus());
          }}
        />
        <ul ref={listRef} id={listId} role="listbox" className={css.list} aria-label="Matching notes">
          {results.map((r, i) => (
            <li
              key={r.doc.id}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              data-index={i}
              className={`${css.option} ${i === active ? css.active : ''}`}
              onMouseMove={() => setActive(i)}
              onClick={(e) => pick(i, e.altKey)}
            >
              <span className={css.title}>{r.title}</span>
              <span className={css.path}>{r.path}</span>
              {r.tags && <span className={css.tags} data-testid="switcher-tags">{r.tags}</span>}
              {r.doc.status !== 'indexed' && <span className={css.status}>{r.doc.status}</span>}
            </li>
          ))}
        </ul>
        <div className={css.footer}>
          {docs === null ? 'Loading notes…' : results.length === 0 ? 'No note matches.' : `${results.length}${results.length === LIMIT ? '+' : ''} of ${prepared.length.toLocaleString()} notes`}
          <span aria-hidden> · ↑↓ move · Enter open · Alt+Enter mind map · Esc close</span>
        </div>
      </div>
    </div>
  );
}

function mark(result: Fuzzysort.Result | undefined, text: string): ReactNode {
  if (!result || !result.target) return text;
  const parts = result.highlight((m, i) => <mark key={i}>{m}</mark>);
  return parts.length ? <>{parts}</> : text;
}
