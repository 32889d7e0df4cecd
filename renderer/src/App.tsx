import { useCallback, useEffect, useMemo, useState } from 'react';
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
  const [host, setHost] = useState<Res<'host.info'> | null>(null);
  const [hostError, setHostError] = useState<unknown>(null);
  const [online, setOnline] = useState(true);
  const library = useLibraryActivity(client);

  useEffect(() => {
    socketListener = setOnline;
    client.call('host.info', {}).then(setHost, setHostError);
    return client.on('ui.show', ({ view }) => setView(view));
  }, [client]);

  const openMindMap = useCallback((note: NoteRef) => {
    setMindMapDoc(note);
    setView('mindmap');
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey || e.altKey) && /^[1-5]$/.test(e.key)) {
        e.preventDefault();
        setView(NAV[Number(e.key) - 1]!.view);
      } else if (e.key === 'Escape' && note) {
        setNote(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [note]);

  const ctx = useMemo<AppContextValue>(
    () => ({ client, host, view, go: setView, openNote: setNote, openMindMap, mindMapDoc, indexVersion: library.version }),
    [client, host, view, openMindMap, mindMapDoc, library.version],
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
              onClick={() => setView(n.view)}
            >
              <span>{n.label}</span>
              <span className={css.shortcut} aria-hidden>
                Ctrl+{i + 1}
              </span>
            </button>
          ))}
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
          {view === 'library' && <LibraryView activity={library.activity} markStarted={library.markStarted} forget={library.forget} />}
          {/* Kept mounted so a conversation (and a streaming answer) survives switching views. */}
          <div hidden={view !== 'ask'}>
            <AskView />
          </div>
          {view === 'mindmap' && <MindMapView />}
          {view === 'graph' && <GraphView />}
          {view === 'settings' && <SettingsView />}
        </main>
        {note && <NoteViewer target={note} onClose={() => setNote(null)} />}
      </div>
    </AppContext.Provider>
  );
}
