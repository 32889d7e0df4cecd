import { useEffect, useState, type FormEvent } from 'react';
import { Button, EmptyState, ErrorBox, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { useCall } from '../lib/use-call.js';
import { available } from '../lib/optional-calls.js';
import { DescribedSettings } from './SettingsForm.js';
import { ModelsPanel } from './Models.js';
import views from './views.module.css';

type Value = string | number | boolean;

export function SettingsView() {
  const { indexVersion } = useApp();
  const settings = useCall('settings.get', {});
  const stats = useCall('stats', {}, [indexVersion]);
  const described = available('settings.describe');
  // Kept for an engine without settings.describe (an older engine serving this UI).

  return (
    <section className={views.view} aria-labelledby="settings-title">
      <h1 id="settings-title" className={ui.heading}>
        Settings &amp; models
      </h1>

      {described ? <DescribedSettings settings={settings.data} settingsError={settings.error} onSaved={settings.reload} /> : <RawSettings settings={settings} />}
      <ModelsPanel settings={settings.data} onSaved={settings.reload} />

      <section className={`${ui.panel} ${ui.stack}`} aria-labelledby="stats-title">
        <h2 id="stats-title" className={ui.subheading}>
          Index
        </h2>
        <ErrorBox error={stats.error} />
        {!stats.data && !stats.error && <EmptyState title="Loading index statistics…" />}
        {stats.data && (
          <table className={ui.table}>
            <tbody>
              <tr>
                <th scope="row">Database</th>
                <td className={views.mono}>{stats.data.dbPath}</td>
              </tr>
              <tr>
                <th scope="row">Embedder</th>
                <td>{stats.data.embedder}</td>
              </tr>
              <tr>
                <th scope="row">Folders</th>
                <td className={views.mono}>{stats.data.roots.join(', ') || '—'}</td>
              </tr>
              {Object.entries(stats.data.counts).map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">{k}</th>
                  <td>{v.toLocaleString()}</td>
                </tr>
              ))}
              {stats.data.extractors.map((x) => (
                <tr key={x.extractor}>
                  <th scope="row">extractor {x.extractor}</th>
                  <td>{x.documents} notes</td>
                </tr>
              ))}
              <tr>
                <th scope="row">Schema version</th>
                <td>{stats.data.schemaVersion}</td>
              </tr>
            </tbody>
          </table>
        )}
      </section>
    </section>
  );
}

/** Without settings.describe (an older engine): every scalar setting by its key. */
function RawSettings({ settings }: { settings: ReturnType<typeof useCall<'settings.get'>> }) {
  const { client } = useApp();
  const [draft, setDraft] = useState<Record<string, Value>>({});
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (settings.data) setDraft(editable(settings.data));
  }, [settings.data]);

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const next = await client.call('settings.update', { patch: draft });
      setDraft(editable(next));
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  }

  const keys = Object.keys(draft).sort();
  return (
    <form className={`${ui.panel} ${ui.stack}`} onSubmit={save} aria-labelledby="engine-settings">
      <h2 id="engine-settings" className={ui.subheading}>
        Engine
      </h2>
      <ErrorBox error={settings.error ?? error} />
      {settings.data && keys.length === 0 && <span className={ui.muted}>The engine reports no adjustable settings.</span>}
      <table className={ui.table}>
        <tbody>
          {keys.map((k) => (
            <tr key={k}>
              <th scope="row">
                <label htmlFor={`setting-${k}`}>{k}</label>
              </th>
              <td>
                <SettingInput id={`setting-${k}`} value={draft[k]!} onChange={(v) => setDraft((d) => ({ ...d, [k]: v }))} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.length > 0 && (
        <span className={ui.row}>
          <Button type="submit" variant="primary">
            Save
          </Button>
          {saved && <span className={ui.muted}>Saved.</span>}
        </span>
      )}
    </form>
  );
}

/** Edited in the Language model panel below, with its catalogue and import. */
export const MODEL_PANEL_KEYS = new Set(['model', 'threads']);

function editable(record: Record<string, unknown>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(record)) {
    if (MODEL_PANEL_KEYS.has(k)) continue;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

function SettingInput({ id, value, onChange }: { id: string; value: Value; onChange(v: Value): void }) {
  if (typeof value === 'boolean') return <input id={id} type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} />;
  if (typeof value === 'number')
    return <input id={id} className={ui.input} type="number" step="any" value={value} onChange={(e) => onChange(e.target.value === '' ? 0 : Number(e.target.value))} />;
  return <input id={id} className={ui.input} value={value} onChange={(e) => onChange(e.target.value)} />;
}
