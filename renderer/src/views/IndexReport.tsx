import type { FolderActivity } from '../lib/use-library-activity.js';
import { ui } from '../components/ui.js';
import { plural } from '../lib/format.js';
import css from './views.module.css';

/** What one index run did: its counts, and the files it skipped or read in another encoding. */
export function IndexReportView({ report, cancelled }: { report: NonNullable<FolderActivity['report']>; cancelled: boolean }) {
  return (
    <div className={ui.stack} data-testid="index-report">
      <span className={ui.muted}>
        {cancelled ? 'Stopped after' : 'Indexed in'} {report.seconds.toFixed(1)} s: {report.changed} changed, {report.unchanged} unchanged, {report.moved ? `${report.moved} moved, ` : ''}{report.removed} removed.
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
        <FileTable
          summary={plural(report.skipped.length, 'skipped file')}
          columns={['Reason', 'Detail']}
          rows={report.skipped.map((f) => [f.relPath, f.reason, f.detail])}
        />
      )}
      {report.readAs.length > 0 && (
        <FileTable
          summary={`${plural(report.readAs.length, 'note')} not in UTF-8, read in the encoding found`}
          columns={['Read as', 'Detail']}
          rows={report.readAs.map((f) => [f.relPath, f.encoding, f.detail])}
        />
      )}
    </div>
  );
}

/** Files of a report, folded under a summary: the path, then what the columns say of it. */
function FileTable({ summary, columns, rows }: { summary: string; columns: string[]; rows: [string, ...string[]][] }) {
  return (
    <details>
      <summary>{summary}</summary>
      <table className={ui.table}>
        <thead>
          <tr>
            <th>File</th>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([path, ...cells]) => (
            <tr key={path}>
              <td className={css.mono}>{path}</td>
              {cells.map((c, i) => (
                <td key={columns[i]}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
