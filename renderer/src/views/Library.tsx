import { useMemo, useState } from 'react';
import type { Res } from '../../../main/contract/contract.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { FolderField } from '../components/FolderField.js';
import { IndexProgress } from '../components/IndexProgress.js';
import { Badge, Button, EmptyState, ErrorBox, Notice, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { plural } from '../lib/format.js';
import { noteStatus, STATUS_LABEL, type NoteStatus } from '../lib/note-status.js';
import { useCall } from '../lib/use-call.js';
import { isCancelled, type FolderActivity, type LibraryState } from '../lib/use-library-activity.js';
import css from './views.module.css';
import { IndexReportView } from './IndexReport.js';

type Doc = Res<'library.documents'>[number];
type Folder = Res<'library.folders'>[number];

/** Starts an index run of a folder and tracks it in the shared activity (used by Library and onboarding). */
export function useIndexFolder(library: LibraryState, onError: (e: unknown) => void) {
  const { client } = useApp();
  return (root: string) => {
    // Until the engine answers with its own spelling of the folder, show the run under what was typed.
    library.markStarted(root);
    client.call('library.index', { root, watch: true }).then(
      (report) => {
        if (report.root !== root) library.forget(root);
      },
      (err) => {
        // A cancelled run is reported by the index.error event and shown as cancelled, not as an error.
        if (isCancelled(null, err instanceof Error ? err.message : String(err))) return;
        library.forget(root);
        onError(err);
      },
    );
  };
}

export function LibraryView({ library }: { library: LibraryState }) {
  const { indexVersion, client } = useApp();
  const roots = useCall('library.roots', {}, [indexVersion]);
  const folders = useCall('library.folders', {}, [indexVersion]);
  const docs = useCall('library.documents', {}, [indexVersion]);
  const [error, setError] = useState<unknown>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const index = useIndexFolder(library, setError);
  const { activity } = library;

  const scopes = new Map((folders.data ?? []).map((f) => [f.root, f]));
  const known = [...new Set([...(roots.data ?? []), ...Object.keys(activity)])];

  async function remove(root: string) {
    setRemoving(null);
    setError(null);
    try {
      await client.call('library.remove', { root });
      library.forget(root);
      roots.reload();
      docs.reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section className={css.view} aria-labelledby="library-title">
      <div className={css.header}>
        <h1 id="library-title" className={ui.heading}>
          Library
        </h1>
        <span className={ui.muted}>Folders of Markdown and text notes, indexed on this machine.</span>
      </div>

      <div className={ui.panel}>
        <FolderField onSubmit={(root) => (setError(null), index(root))} />
      </div>
      <ErrorBox error={error ?? roots.error} />

      {known.length === 0 && !roots.loading && (
        <EmptyState title="No notes folder yet">
          <span>Add a folder above: Loci indexes it in the background and keeps it current as you edit.</span>
        </EmptyState>
      )}

      {known.map((root) => (
        <FolderCard
          key={root}
          root={root}
          scope={scopes.get(root)}
          activity={activity[root]}
          onReindex={() => index(root)}
          onCancel={() => {
            library.markCancelling(root);
            client.call('library.cancelIndex', { root }).catch(setError);
          }}
          onRemove={() => setRemoving(root)}
          onScopeSaved={() => (folders.reload(), docs.reload())}
        />
      ))}

      {removing && (
        <ConfirmDialog title="Remove this folder from the library?" confirmLabel="Remove folder" onConfirm={() => remove(removing)} onCancel={() => setRemoving(null)}>
          <span className={css.mono}>{removing}</span>
          <span>
            Its notes, facts, mind maps and graph links leave the index. The files on disk are not touched; add the folder again to bring them back.
          </span>
        </ConfirmDialog>
      )}

      {docs.data && docs.data.length > 0 && <DocumentsTable docs={docs.data} onReindexed={docs.reload} />}
    </section>
  );
}

function FolderCard({
  root,
  scope,
  activity,
  onReindex,
  onCancel,
  onRemove,
  onScopeSaved,
}: {
  root: string;
  scope?: Folder;
  activity?: FolderActivity;
  onReindex(): void;
  onCancel(): void;
  onRemove(): void;
  onScopeSaved(): void;
}) {
  const report = activity?.report;
  return (
    <article className={`${ui.panel} ${ui.stack}`} aria-label={`Folder ${root}`} data-testid="folder-card">
      <div className={css.header}>
        <span className={css.mono}>{root}</span>
        <span className={ui.row}>
          {activity?.running ? (
            <Badge>{activity.progress?.phase === 'llm' ? 'Model pass' : 'Indexing'}</Badge>
          ) : (
            <>
              <Badge title="Changes on disk are indexed automatically">{report ? 'Up to date · watching' : 'Watching for changes'}</Badge>
              <Button size="small" onClick={onReindex}>
                Re-index
              </Button>
            </>
          )}
          <Button size="small" onClick={onRemove} aria-label={`Remove folder ${root}`}>
            Remove…
          </Button>
        </span>
      </div>

      {activity?.running && <IndexProgress root={root} activity={activity} onCancel={onCancel} />}
      {activity?.cancelled && !activity.running && (
        <Notice>
          <span data-testid="index-cancelled">Cancelled. Notes finished before the cancel are kept; Re-index to continue.</span>
        </Notice>
      )}
      <ErrorBox error={activity?.error} />
      {report && !activity?.running && <IndexReportView report={report} cancelled={!!activity?.cancelled} />}
      <ScopeEditor root={root} scope={scope} onSaved={onScopeSaved} />
    </article>
  );
}

/** Include/exclude globs (.gitignore style, one per line) for one folder. */
function ScopeEditor({ root, scope, onSaved }: { root: string; scope?: Folder; onSaved(): void }) {
  const { client } = useApp();
  const [include, setInclude] = useState<string | null>(null);
  const [exclude, setExclude] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const inc = include ?? (scope?.include ?? []).join('\n');
  const exc = exclude ?? (scope?.exclude ?? []).join('\n');
  const lines = (s: string) =>
    s
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  const id = root.replace(/[^A-Za-z0-9]/g, '-');

  async function save() {
    setError(null);
    setSaved(false);
    try {
      await client.call('library.setScope', { root, include: lines(inc), exclude: lines(exc) });
      setSaved(true);
      setInclude(null);
      setExclude(null);
      onSaved();
    } catch (err) {
      setError(err);
    }
  }

  const count = (scope?.include.length ?? 0) + (scope?.exclude.length ?? 0);
  return (
    <details data-testid="scope-editor">
      <summary>Scope{count ? ` (${plural(count, 'rule')})` : ': every note'}</summary>
      <div className={ui.stack}>
        <span className={ui.muted}>
          One pattern per line, as in .gitignore (e.g. <code>archive/</code>, <code>*.txt</code>, <code>drafts/**</code>). With include patterns, only matching notes are
          indexed; exclude patterns win.
        </span>
        <div className={css.scopeGrid}>
          <label className={ui.stack}>
            <span>Include</span>
            <textarea className={ui.input} rows={3} value={inc} onChange={(e) => setInclude(e.target.value)} aria-describedby={`${id}-scope-help`} />
          </label>
          <label className={ui.stack}>
            <span>Exclude</span>
            <textarea className={ui.input} rows={3} value={exc} onChange={(e) => setExclude(e.target.value)} aria-describedby={`${id}-scope-help`} />
          </label>
        </div>
        <span id={`${id}-scope-help`} className="sr-only">
          gitignore-style patterns, one per line
        </span>
        <ErrorBox error={error} />
        <span className={ui.row}>
          <Button size="small" variant="primary" onClick={save}>
            Save scope and re-index
          </Button>
          {saved && <span className={ui.muted}>Saved.</span>}
        </span>
      </div>
    </details>
  );
}

const PAGE = 200;

function DocumentsTable({ docs, onReindexed }: { docs: Doc[]; onReindexed(): void }) {
  const { openMindMap, openNote, client } = useApp();
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState<NoteStatus | 'all'>('all');
  const [limit, setLimit] = useState(PAGE);
  const [error, setError] = useState<unknown>(null);
  const withStatus = useMemo(() => docs.map((d) => ({ doc: d, st: noteStatus(d) })), [docs]);
  const counts = useMemo(() => {
    const c: Partial<Record<NoteStatus, number>> = {};
    for (const { st } of withStatus) c[st.status] = (c[st.status] ?? 0) + 1;
    return c;
  }, [withStatus]);
  const q = filter.trim().toLowerCase();
  const shown = withStatus.filter(({ doc, st }) => (status === 'all' || st.status === status) && (!q || doc.title.toLowerCase().includes(q) || doc.relPath.toLowerCase().includes(q)));

  async function reindex(d: Doc) {
    setError(null);
    try {
      // Notes carry their folder once the engine reports it; with one folder it is that one.
      await client.call('library.reindex', { root: d.root, docId: d.id });
      onReindexed();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section className={`${ui.panel} ${ui.stack}`} aria-labelledby="docs-title">
      <div className={css.header}>
        <h2 id="docs-title" className={ui.subheading}>
          Notes <span className={ui.muted}>({docs.length})</span>
        </h2>
        <span className={ui.row}>
          <label htmlFor="status-filter" className={ui.muted}>
            Status
          </label>
          <select id="status-filter" className={ui.select} value={status} onChange={(e) => setStatus(e.target.value as NoteStatus | 'all')}>
            <option value="all">All ({docs.length})</option>
            {(Object.keys(STATUS_LABEL) as NoteStatus[])
              .filter((s) => counts[s])
              .map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]} ({counts[s]})
                </option>
              ))}
          </select>
          <input className={ui.input} placeholder="Filter notes" aria-label="Filter notes" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </span>
      </div>
      <ErrorBox error={error} />
      <div className={css.scroll}>
        <table className={ui.table} data-testid="documents-table">
          <thead>
            <tr>
              <th>Title</th>
              <th>Path</th>
              <th>Status</th>
              <th>Facts</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.slice(0, limit).map(({ doc: d, st }) => (
              <tr key={d.id}>
                <td>
                  {st.readable ? (
                    <button type="button" className={css.linkButton} onClick={() => openMindMap({ docPath: d.relPath, docId: d.id })} title="Open its mind map">
                      {d.title}
                    </button>
                  ) : (
                    d.title
                  )}
                </td>
                <td className={css.mono}>{d.relPath}</td>
                <td data-testid="note-status" data-status={st.status}>
                  <span className={`${css.status} ${css[`status-${st.status}`] ?? ''}`}>{STATUS_LABEL[st.status]}</span>
                  {st.reason && <span className={ui.muted}> — {st.reason}</span>}
                </td>
                <td>{d.fcis}</td>
                <td>
                  <span className={css.actions}>
                  {st.readable && (
                    <button type="button" className={css.linkButton} onClick={() => openNote({ docPath: d.relPath, docId: d.id })} aria-label={`Open ${d.title}`}>
                      Open
                    </button>
                  )}
                  <button type="button" className={css.linkButton} onClick={() => reindex(d)} aria-label={`Re-index ${d.title}`}>
                    Re-index
                  </button>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length > limit && (
          <Button size="small" onClick={() => setLimit((l) => l + PAGE * 5)}>
            Show more ({(shown.length - limit).toLocaleString()} not shown)
          </Button>
        )}
      </div>
    </section>
  );
}
