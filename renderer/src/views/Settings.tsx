import { EmptyState, ErrorBox, ui } from '../components/ui.js';
import { EmbedderSwitchStatus } from '../components/EmbedderSwitch.js';
import { useApp } from '../lib/app-context.js';
import { useCall } from '../lib/use-call.js';
import { embedderChoices } from '../lib/model-use.js';
import { languagesLine } from '../lib/languages.js';
import { DescribedSettings } from './SettingsForm.js';
import { IndexEstimates, type EstimatedEmbedder } from '../components/IndexEstimates.js';
import { ModelsPanel } from './Models.js';
import views from './views.module.css';

/** The built-in embedder, the installed embedding models and the one in the settings, each once. */
function estimatedEmbedders(settings: Record<string, unknown> | null, installed: Parameters<typeof embedderChoices>[0]): EstimatedEmbedder[] {
  const out: EstimatedEmbedder[] = [{ spec: 'glove', name: 'GloVe (built in)' }];
  for (const c of embedderChoices(installed)) out.push({ spec: c.value, name: c.label });
  const current = typeof settings?.embedder === 'string' ? settings.embedder : null;
  if (current && !out.some((e) => e.spec === current)) out.push({ spec: current, name: current });
  return out;
}

export function SettingsView() {
  const { indexVersion } = useApp();
  const settings = useCall('settings.get', {});
  const stats = useCall('stats', {}, [indexVersion]);
  // Listed again whenever the settings change: which installed model is in use moves with them.
  const models = useCall('models.list', {}, [settings.data]);
  // Kept for an engine without settings.describe (an older engine serving this UI).

  return (
    <section className={views.view} aria-labelledby="settings-title">
      <h1 id="settings-title" className={ui.heading}>
        Settings &amp; models
      </h1>

      <EmbedderSwitchStatus
        initial={stats.data?.switching ?? null}
        onSettled={() => {
          settings.reload();
          stats.reload();
        }}
      />
      <DescribedSettings settings={settings.data} settingsError={settings.error} onSaved={settings.reload} choices={{ embedder: embedderChoices(models.data?.installed) }} />
      {stats.data && stats.data.roots.length > 0 && (
        <section className={`${ui.panel} ${ui.stack}`}>
          <IndexEstimates id="estimates-title" title="Index time per embedder" embedders={estimatedEmbedders(settings.data, models.data?.installed)} />
        </section>
      )}
      <ModelsPanel settings={settings.data} models={models} onSaved={settings.reload} />

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
                <th scope="row">Languages</th>
                <td>{languagesLine(stats.data.languages)}</td>
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
