import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import css from './App.module.css';
import { EmptyState, ErrorBox, Button } from './components/ui.js';
import { AppContext, type AppContextValue, type NoteRef, type NoteTarget, type ViewName } from './lib/app-context.js';
import { connect } from './lib/client.js';
import { useLibraryActivity } from './lib/use-library-activity.js';
import { useTheme } from './lib/theme.js';
import { AskView } from './views/Ask.js';
import { GraphView } from './views/Graph.js';
import { LibraryView } from './views/Library.js';
import { MindMapView } from './views/MindMap.js';
import { NoteViewer } from './views/NoteViewer.js';
import { SettingsView } from './views/Settings.js';
import { Onboarding } from './views/Onboarding.js';
import { QuickSwitcher, type SwitcherPurpose } from './components/QuickSwitcher.js';
import { ViewBoundary } from './components/ViewBoundary.js';
import type { Res } from '../../main/contract/contract.js';

const NAV: { view: ViewName; label: string }[] = [
  { view: 'library', label: 'Library' },
  { view: 'ask', label: 'Ask' },
  { view: 'mindmap', label: 'Mind map' },
  { view: 'graph', label: 'Graph' },
  { view: 'settings', label: 'Settings & models' },
];

let socketListener: (connected: boolean) => void = () => {};
const connection = connect((c) => socketListener(c));

export function App() {
  const [theme, toggleTheme] = useTheme();
  if ('error' in connection) {
    return (
      <div className={css.full}>
        <EmptyState title="Not connected to Loci">
          <p>{connection.error}</p>
        </EmptyState>
      </div>
    );
  }
  return <Connected client={connection.client} theme={theme} toggleTheme={toggleTheme} />;
}

function Connected({ client, theme, toggleTheme }: { client: AppContextValue['client']; theme: string; toggleTheme(): void }) {
  const [view, setView] = useState<ViewName>('library');
  const [note, setNote] = useState<NoteTarget | null>(null);
  const [mindMapDoc, setMindMapDoc] = useState<NoteRef | null>(null);
  const [graphDoc, setGraphDoc] = useState<NoteRef | null>(null);
  const [switcher, setSwitcher] = useState<SwitcherPurpose | null>(null);
  const [switcherQuery, setSwitcherQuery] = useState('');
  const [tags, setTags] = useState<Res<'library.tags'> | null>(null);
  const [docs, setDocs] = useState<Res<'library.documents'> | null>(null);
  /**
   * First run: the library is empty when the app opens; cleared when the user finishes or skips. Null
   * until the engine says: showing the library view meanwhile let a path typed into its folder field be
   * swept away by the first-run view replacing it.
   */
  const [firstRun, setFirstRun] = useState<boolean | null>(null);
  const [host, setHost] = useState<Res<'host.info'> | null>(null);
  const [hostError, setHostError] = useState<unknown>(null);
  const [online, setOnline] = useState(true);
  /** Problems the engine reports on its own (engine.error), shown until dismissed. */
  const [engineErrors, setEngineErrors] = useState<string[]>([]);
  /** What the engine worked around or wants the user to know (engine.warnings, then engine.warning), until dismissed. */
  const [notices, setNotices] = useState<string[]>([]);
  const library = useLibraryActivity(client);
  const { openNote, closeNote } = useNotePanelFocus(note, setNote);

  useEffect(() => {
    socketListener = setOnline;
    client.call('host.info', {}).then(setHost, setHostError);
    client.call('library.roots', {}).then(
      (roots) => setFirstRun(roots.length === 0),
      () => setFirstRun(false), // the library view says what is wrong
    );
    const offError = client.on('engine.error', ({ source, message }) => setEngineErrors((all) => [...all.slice(-2), `${source}: ${message}`]));
    const offShow = client.on('ui.show', ({ view }) => setView(view));
    // Subscribed before asking for the earlier ones, so a warning raised in between is not lost (a repeat is
    // dropped, and so is one dismissed in this window: reloading it does not bring back what the user closed).
    const addNotices = (messages: string[]) => {
      const dismissed = dismissedNotices();
      setNotices((all) => [...all, ...messages.filter((m) => !all.includes(m) && !dismissed.has(m))].slice(-5));
    };
    const offWarning = client.on('engine.warning', ({ message }) => addNotices([message]));
    client.call('engine.warnings', {}).then(addNotices, () => {});
    return () => {
      offError();
      offShow();
      offWarning();
    };
  }, [client]);

  const openMindMap = useCallback((note: NoteRef) => {
    setMindMapDoc(note);
    setView('mindmap');
  }, []);
  const openGraph = useCallback((note: NoteRef | null) => {
    setGraphDoc(note);
    setView('graph');
  }, []);
  // Going to the graph with a note in front of you shows that note's local graph.
  const showView = useCallback(
    (v: ViewName) => {
      if (v === 'graph' && view !== 'graph') {
        const current = note ?? (view === 'mindmap' ? mindMapDoc : null);
        if (current) setGraphDoc({ docPath: current.docPath, docId: current.docId });
      }
      setView(v);
    },
    [note, view, mindMapDoc],
  );
  const openSwitcher = useCallback((purpose: SwitcherPurpose = 'note', query = '') => {
    setSwitcherQuery(query);
    setSwitcher(purpose);
  }, []);

  // The switcher's note list, fetched when it opens and whenever an index run lands.
  useEffect(() => {
    if (switcher === null) return;
    let live = true;
    client.call('library.documents', {}).then((d) => live && setDocs(d), () => live && setDocs([]));
    client.call('library.tags', {}).then((t) => live && setTags(t), () => live && setTags([]));
    return () => {
      live = false;
    };
  }, [client, switcher, library.version]);

  const pickFromSwitcher = useCallback(
    (picked: NoteRef, purpose: SwitcherPurpose) => {
      setSwitcher(null);
      if (purpose === 'mindmap') openMindMap(picked);
      else if (purpose === 'graph') openGraph(picked);
      else openNote(picked);
    },
    [openMindMap, openGraph, openNote],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && (e.key === 'k' || e.key === 'K' || e.key === 'o' || e.key === 'O')) {
        e.preventDefault();
        setSwitcherQuery('');
        setSwitcher((s) => (s ? null : 'note'));
      } else if ((e.ctrlKey || e.metaKey || e.altKey) && /^[1-5]$/.test(e.key)) {
        e.preventDefault();
        showView(NAV[Number(e.key) - 1]!.view);
      } else if (e.key === 'Escape' && note && !switcher && !e.defaultPrevented) {
        closeNote();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [note, switcher, showView, closeNote]);

  const ctx = useMemo<AppContextValue>(
    () => ({
      client,
      host,
      view,
      go: showView,
      openNote,
      openMindMap,
      mindMapDoc,
      openGraph,
      graphDoc,
      openSwitcher,
      indexVersion: library.version,
    }),
    [client, host, view, showView, openNote, openMindMap, mindMapDoc, openGraph, graphDoc, openSwitcher, library.version],
  );

  return (
    <AppContext.Provider value={ctx}>
      <div className={`${css.shell} ${note ? css.withNote : ''}`}>
        <nav className={css.sidebar} aria-label="Views">
          <div className={css.brand}>Loci</div>
          {NAV.map((n, i) => (
            <button
              key={n.view}
              type="button"
              className={`${css.navItem} ${view === n.view ? css.navActive : ''}`}
              aria-current={view === n.view ? 'page' : undefined}
              onClick={() => showView(n.view)}
            >
              <span>{n.label}</span>
              <span className={css.shortcut} aria-hidden>
                Ctrl+{i + 1}
              </span>
            </button>
          ))}
          <button type="button" className={css.navItem} onClick={() => openSwitcher('note')} aria-keyshortcuts="Control+K Control+O">
            <span>Find a note…</span>
            <span className={css.shortcut} aria-hidden>
              Ctrl+K
            </span>
          </button>
          <div className={css.sidebarFooter}>
            <Button size="small" onClick={toggleTheme} aria-label="Toggle light or dark theme">
              {theme === 'dark' ? 'Light theme' : 'Dark theme'}
            </Button>
            {host && <span>{host.host === 'electron' ? 'Desktop app' : 'Browser mode'} · v{host.version}</span>}
            {!online && <span className={css.offline}>Event stream reconnecting…</span>}
          </div>
        </nav>
        <main className={css.main}>
          <ErrorBox error={hostError} />
          <EngineMessages messages={engineErrors} tone="error" onDismiss={() => setEngineErrors([])} />
          <EngineMessages
            messages={notices}
            tone="notice"
            onDismiss={() => {
              dismissNotices(notices);
              setNotices([]);
            }}
          />
          {view === 'library' && firstRun === null && <EmptyState title="Opening your library…" />}
          {view === 'library' && firstRun === true && <Onboarding library={library} onDone={() => setFirstRun(false)} />}
          {view === 'library' && firstRun === false && (
            <ViewBoundary name="The library">
              <LibraryView library={library} />
            </ViewBoundary>
          )}
          {/* Kept mounted so a conversation (and a streaming answer) survives switching views. */}
          <div hidden={view !== 'ask'}>
            <ViewBoundary name="The conversation">
              <AskView />
            </ViewBoundary>
          </div>
          {view === 'mindmap' && (
            <ViewBoundary name="The mind map" resetKey={mindMapDoc}>
              <MindMapView />
            </ViewBoundary>
          )}
          {view === 'graph' && (
            <ViewBoundary name="The graph">
              <GraphView />
            </ViewBoundary>
          )}
          {view === 'settings' && (
            <ViewBoundary name="Settings">
              <SettingsView />
            </ViewBoundary>
          )}
        </main>
        {note && (
          <ViewBoundary name="The note" resetKey={note}>
            <NoteViewer target={note} onClose={closeNote} />
          </ViewBoundary>
        )}
      </div>
      {switcher && <QuickSwitcher docs={docs} tags={tags} initialQuery={switcherQuery} purpose={switcher} onPick={pickFromSwitcher} onClose={() => setSwitcher(null)} />}
    </AppContext.Provider>
  );
}

/** Panels (the note viewer, dialogs) are not where focus comes back to. */
const PANELS = '[data-testid="note-viewer"], [role="dialog"], [role="alertdialog"]';

/**
 * Opening and closing the note panel with focus kept in place: closing it (Escape, Close) returns focus to
 * the element that opened it — a citation, a search result, the switcher's caller — not to <body>.
 */
function useNotePanelFocus(note: NoteTarget | null, setNote: (n: NoteTarget | null) => void) {
  const lastOutside = useRef<HTMLElement | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement && !e.target.closest(PANELS)) lastOutside.current = e.target;
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, []);
  const open = note !== null;
  const openNote = useCallback(
    (target: NoteTarget) => {
      if (!open) {
        const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        opener.current = active && active !== document.body && !active.closest(PANELS) ? active : lastOutside.current;
      }
      setNote(target);
    },
    [open, setNote],
  );
  const closeNote = useCallback(() => {
    setNote(null);
    const back = opener.current;
    opener.current = null;
    // After the panel is gone; the opener may have gone too (a re-rendered list): then the current view's nav item.
    requestAnimationFrame(() => {
      const target = back?.isConnected && back.getClientRects().length ? back : document.querySelector<HTMLElement>('nav [aria-current="page"]');
      target?.focus();
    });
  }, [setNote]);
  return { openNote, closeNote };
}

/** Messages the engine raised on its own, listed until dismissed: errors alert, notices only inform. */
function EngineMessages({ messages, tone, onDismiss }: { messages: string[]; tone: 'error' | 'notice'; onDismiss(): void }) {
  if (messages.length === 0) return null;
  const error = tone === 'error';
  return (
    <div className={error ? css.engineErrors : css.notices} role={error ? 'alert' : 'status'} data-testid={error ? 'engine-errors' : 'engine-notices'}>
      <ul>
        {messages.map((m, i) => (
          <li key={i}>{m}</li>
        ))}
      </ul>
      <Button size="small" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

const DISMISSED_KEY = 'loci.dismissedNotices';

/** Notices the user dismissed in this window (sessionStorage: a new window shows what still holds). */
function dismissedNotices(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

function dismissNotices(messages: string[]): void {
  sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...new Set([...dismissedNotices(), ...messages])]));
}
