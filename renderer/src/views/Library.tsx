import { useState, type FormEvent } from 'react';
import { Badge, Button, EmptyState, ErrorBox, ProgressBar, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { formatEta, plural } from '../lib/format.js';
import { useCall } from '../lib/use-call.js';
import type { FolderActivity, LibraryActivity } from '../lib/use-library-activity.js';
import css from './views.module.css';

const PHASES = ['scan', 'parse', 'extract', 'embed', 'graph', 'llm'] as const;

export function LibraryView({ activity, markStarted, forget }: { activity: LibraryActivity; markStarted(root: string): void; forget(root: string): void }) {
  const { client, host, indexVersion } = useApp();
  const roots = useCall('library.roots', {}, [indexVersion]);
  const docs = useCall('library.documents', {}, [indexVersion]);
  const [folder, setFolder] = useState('');
  const [error, setError] = useState<unknown>(null);

  function index(root: string) {
    setError(null);
    // Until the engine answers with its own spelling of the folder, show the run under what was typed.
    markStarted(root);
    client.call('library.index', { root, watch: true }).then((report) => {
      if (report.root !== root) forget(root);
      roots.reload();
    }, setError);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const root = folder.trim().replace(/(.)[\\/]+$/, '$1');
    if (root) index(root);
  }

  async function pick() {
    const chosen = await client.call('host.pickFolder', {}).catch((e) => (setError(e), null));
    if (chosen) {
      setFolder(chosen);
      index(chosen);
    }
  }

  const known = new Set([...(roots.data ?? []), ...Object.keys(activity)]);

  return (
    <section className={css.view} aria-labelledby="library-title">
      <div className={css.header}>
        <h1 id="library-title" className={ui.heading}>
          Library
        </h1>
        <span className={ui.muted}>Folders of Markdown and text notes, indexed on this machine.</span>
      </div>

      <form className={`${ui.panel} ${ui.row}`} onSubmit={submit} aria-label="Add a notes folder">
        <label htmlFor="folder-input" className="sr-only">
          Folder path
        </label>
        <input
          id="folder-input"
          className={ui.input}
          placeholder={host?.canPickFolder ? 'Choose a folder, or type its path' : 'Type the full path of a notes folder on the server machine'}
          value={folder}
          onChange={(e) => setFolder(e.target.value)}
        />
        {host?.canPickFolder && <Button onClick={pick}>Choose…</Button>}
        <Button type="submit" variant="primary" disabled={!folder.trim()}>
          Add folder
        </Button>
      </form>
      <ErrorBox error={error ?? roots.error} />

      {known.size === 0 && !roots.loading && (
        <EmptyState title="No notes folder yet">
          <span>Add a folder above: Loci indexes it in the background and keeps it current as you edit.</span>
        </EmptyState>
      )}

      {[...known].map((root) => (
        <FolderCard key={root} root={root} activity={activity[root]} onReindex={() => index(root)} />
      ))}

      {docs.data && docs.data.length > 0 && <DocumentsTable docs={docs.data} />}
    </section>
  );
}

function FolderCard({ root, activity, onReindex }: { root: string; activity?: FolderActivity; onReindex(): void }) {
  const { client } = useApp();
  const progress = activity?.progress;
  const report = activity?.report;
  return (
    <article className={`${ui.panel} ${ui.stack}`} aria-label={`Folder ${root}`} data-testid="folder-card">
      <div className={css.header}>
        <span className={css.mono}>{root}</span>
        <span className={ui.row}>
          {activity?.running ? (
            <>
              <Badge>Indexing</Badge>
              <Button size="small" onClick={() => client.call('library.cancelIndex', { root })}>
                Cancel
              </Button>
            </>
          ) : (
            <>
              <Badge title="Changes on disk are indexed automatically">{report ? 'Up to date · watching' : 'Watching for changes'}</Badge>
              <Button size="small" onClick={onReindex}>
                Re-index
              </Button>
            </>
          )}
        </span>
      </div>

      {activity?.running && (
        <div className={ui.stack} data-testid="index-progress">
          <ProgressBar value={progress?.done ?? 0} max={progress?.total ?? 0} label={`Indexing ${root}`} />
          <span className={ui.muted} aria-live="polite">
            {progress ? `${progress.phase}: ${progress.done.toLocaleString()} / ${progress.total.toLocaleString()} ${formatEta(progress.etaSeconds)}` : 'Starting…'}
            {progress?.current ? ` · ${progress.current}` : ''}
          </span>
          <ol className={css.phases} aria-label="Indexing phases">
            {PHASES.filter((p, i) => activity.phases[p] || (p !== 'llm' && i > PHASES.indexOf(progress?.phase as (typeof PHASES)[number]))).map((p) => {
              const ph = activity.phases[p];
              return (
                <li key={p} className={`${css.phase} ${progress?.phase === p ? css.phaseActive : ''}`}>
                  <div className={css.phaseName}>{p}</div>
                  <div className={ui.muted}>{ph ? `${ph.done} / ${ph.total}` : 'waiting'}</div>
                </li>
              );
            })}
          </ol>
        </div>
      )}

      <ErrorBox error={activity?.error} />

      {report && !activity?.running && (
        <div className={ui.stack} data-testid="index-report">
          <span className={ui.muted}>
            Indexed in {report.seconds.toFixed(1)} s: {report.changed} changed, {report.unchanged} unchanged, {report.removed} removed.
          </span>
          <dl className={css.counts}>
            {(
              [
                ['Notes', report.counts.documents],
                ['Chunks', report.counts.chunks],
                ['Facts', report.counts.fcis],
                ['Mind-map nodes', report.counts.mindMapNodes],
                ['Entities', report.counts.entities],
                ['Triples', report.counts.triples],
                ['Super-nodes', report.counts.superNodes],
                ['Skipped', report.counts.skipped],
              ] as const
            ).map(([label, n]) => (
              <div key={label} className={css.count}>
                <dt>{label}</dt>
                <dd>{n.toLocaleString()}</dd>
              </div>
            ))}
          </dl>
          {report.skipped.length > 0 && (
            <details>
              <summary>{plural(report.skipped.length, 'skipped file')}</summary>
              <table className={ui.table}>
                <thead>
                  <tr>
                    <th>File</th>
                    <th>Reason</th>
                    <th>Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {report.skipped.map((s) => (
                    <tr key={s.relPath}>
                      <td className={css.mono}>{s.relPath}</td>
                      <td>{s.reason}</td>
                      <td>{s.detail}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          )}
        </div>
      )}
    </article>
  );
}

function DocumentsTable({ docs }: { docs: { id: number; relPath: string; title: string; status: string; error: string | null; chunks: number; fcis: number }[] }) {
  const { openMindMap, openNote } = useApp();
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const shown = q ? docs.filter((d) => d.title.toLowerCase().includes(q) || d.relPath.toLowerCase().includes(q)) : docs;
  return (
    <section className={`${ui.panel} ${ui.stack}`} aria-labelledby="docs-title">
      <div className={css.header}>
        <h2 id="docs-title" className={ui.subheading}>
          Notes <span className={ui.muted}>({docs.length})</span>
        </h2>
        <input className={ui.input} placeholder="Filter notes" aria-label="Filter notes" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      <div className={css.scroll}>
        <table className={ui.table}>
          <thead>
            <tr>
              <th>Title</th>
              <th>Path</th>
              <th>Status</th>
              <th>Facts</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr key={d.id}>
                <td>
                  {d.status === 'indexed' ? (
                    <button type="button" className={css.linkButton} onClick={() => openMindMap({ docPath: d.relPath, docId: d.id })}>
                      {d.title}
                    </button>
                  ) : (
                    d.title
                  )}
                </td>
                <td className={css.mono}>{d.relPath}</td>
                <td title={d.error ?? undefined}>{d.status}</td>
                <td>{d.fcis}</td>
                <td>
                  {d.status === 'indexed' && (
                    <button type="button" className={css.linkButton} onClick={() => openNote({ docPath: d.relPath, docId: d.id })}>
                      Open
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
