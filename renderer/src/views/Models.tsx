import { useEffect, useState, type FormEvent } from 'react';
import type { EventPayload, Res } from '../../../main/contract/contract.js';
import { Badge, Button, ErrorBox, Notice, ProgressBar, ui } from '../components/ui.js';
import { ConfirmDialog } from '../components/ConfirmDialog.js';
import { useApp } from '../lib/app-context.js';
import type { CallState } from '../lib/use-call.js';
import { inUse, inUseNotice, installedCopy, removalRefusal, settingFor, actionLabel, type CatalogueModel, type InstalledModel, type ModelSetting } from '../lib/model-use.js';
import { languageName } from '../lib/languages.js';
import views from './views.module.css';

type Progress = EventPayload<'models.progress'>;

function size(bytes: number | null): string {
  if (bytes === null) return '—';
  return bytes > 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * The model the engine answers with (settings key `model`), the catalogue with downloads, and import.
 * `models`: the models.list call, shared with the settings form (its embedder field offers installed models).
 */
export function ModelsPanel({ settings, models, onSaved }: { settings: Record<string, unknown> | null; models: CallState<Res<'models.list'>>; onSaved(): void }) {
  const { client } = useApp();
  const [progress, setProgress] = useState<Record<string, Progress>>({});
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [spec, setSpec] = useState('');
  const [threads, setThreads] = useState(1);
  const [importPath, setImportPath] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<{ model: CatalogueModel; copy: InstalledModel } | null>(null);

  useEffect(() => {
    if (!settings) return;
    setSpec(typeof settings.model === 'string' ? settings.model : '');
    setThreads(typeof settings.threads === 'number' ? settings.threads : 1);
  }, [settings]);

  useEffect(() => client.on('models.progress', (p) => setProgress((all) => ({ ...all, [p.id]: p }))), [client]);

  const mark = (id: string, on: boolean) =>
    setBusy((b) => {
      const n = new Set(b);
      if (on) n.add(id);
      else n.delete(id);
      return n;
    });

  async function pull(id: string) {
    setError(null);
    mark(id, true);
    try {
      await client.call('models.pull', { id });
    } catch (err) {
      setError(err);
    } finally {
      mark(id, false);
      models.reload();
    }
  }

  async function switchModel(value: string) {
    setError(null);
    try {
      await client.call('settings.update', { patch: { model: value, threads } });
      setSpec(value);
      onSaved();
    } catch (err) {
      setError(err);
    }
  }

  /** Puts an installed catalogue model to work: a language model answers, an embedding model embeds. */
  async function putToWork(m: CatalogueModel, setting: ModelSetting) {
    if ('model' in setting) return switchModel(setting.model);
    setError(null);
    setNotice(null);
    try {
      await client.call('settings.update', { patch: setting });
      setNotice(inUseNotice(setting, m.name));
      onSaved();
    } catch (err) {
      setError(err);
    }
  }

  async function remove(copy: InstalledModel) {
    setRemoving(null);
    setError(null);
    setNotice(null);
    try {
      const r = await client.call('models.remove', { id: copy.id });
      setNotice(`Removed ${r.id}: ${size(r.freedBytes)} freed.`);
    } catch (err) {
      setError(err);
    } finally {
      models.reload();
    }
  }

  async function importGguf(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const r = await client.call('models.import', { file: importPath.trim() });
      setImportPath('');
      models.reload();
      await switchModel(r.id);
    } catch (err) {
      setError(err);
    }
  }

  const installed = models.data?.installed ?? [];
  // The model field above, not yet saved, counts as the language model in use.
  const current = { ...settings, model: spec };
  const downloading = new Set([...(models.data?.downloading ?? []), ...busy]);

  return (
    <section className={`${ui.panel} ${ui.stack}`} aria-labelledby="models-title">
      <h2 id="models-title" className={ui.subheading}>
        Language model
      </h2>
      <Notice>
        With no model, Loci indexes in fast mode and answers extractively (the best fact paths, cited). A local GGUF model or an OpenAI-compatible server
        (Ollama, llama.cpp server, LM Studio, vLLM) writes the answers instead.
      </Notice>
      <ErrorBox error={error ?? models.error} />
      {notice && <Notice>{notice}</Notice>}
      <form
        className={ui.row}
        onSubmit={(e) => {
          e.preventDefault();
          void switchModel(spec.trim());
        }}
      >
        <label htmlFor="model-spec" className={ui.muted}>
          Model
        </label>
        <input id="model-spec" className={ui.input} placeholder="installed id, /path/model.gguf, or http://127.0.0.1:11434/v1#qwen2.5" value={spec} onChange={(e) => setSpec(e.target.value)} />
        <label htmlFor="model-threads" className={ui.muted}>
          Threads
        </label>
        <input id="model-threads" className={ui.select} type="number" min={1} max={64} value={threads} onChange={(e) => setThreads(Math.max(1, Number(e.target.value) || 1))} />
        <Button type="submit" variant="primary">
          Save
        </Button>
      </form>

      <h3 className={ui.muted}>Catalogue {models.data && <span className={views.mono}>→ {models.data.dir}</span>}</h3>
      <table className={ui.table}>
        <thead>
          <tr>
            <th>Model</th>
            <th>Role</th>
            <th>Size</th>
            <th>Languages</th>
            <th>Licence</th>
            <th>
              <span className="sr-only">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {models.data?.catalogue.map((m) => {
            const p = progress[m.id];
            const copy = installedCopy(m, installed);
            const setting = copy && settingFor(m, copy);
            const used = !!setting && inUse(current, setting);
            return (
              <tr key={m.id}>
                <td title={m.description}>
                  {m.name} {m.verified ? <Badge title="Checksum confirmed against the publisher's listing">verified</Badge> : null}
                </td>
                <td>{m.role}</td>
                <td>{m.sizeBytes !== null ? size(m.sizeBytes) : (m.sizeLabel ?? '—')}</td>
                <td>{m.languages.map(languageName).join(', ')}</td>
                <td>{m.licence}</td>
                <td>
                  {downloading.has(m.id) ? (
                    <span className={ui.stack}>
                      <ProgressBar value={p?.received ?? 0} max={p?.total ?? 0} label={`Downloading ${m.name}`} />
                      <span className={ui.muted}>
                        {p ? `${size(p.received)}${p.total ? ` of ${size(p.total)}` : ''}${p.resumed ? ' (resumed)' : ''}` : 'Starting…'}
                      </span>
                      <Button size="small" onClick={() => client.call('models.cancelPull', { id: m.id }).catch(setError)}>
                        Cancel
                      </Button>
                    </span>
                  ) : copy && setting ? (
                    <span className={ui.row}>
                      <Button size="small" onClick={() => putToWork(m, setting)} disabled={used} aria-label={`${actionLabel(setting, used)}: ${m.name}`}>
                        {actionLabel(setting, used)}
                      </Button>
                      <Button
                        size="small"
                        onClick={() => setRemoving({ model: m, copy })}
                        disabled={copy.inUse !== null}
                        title={removalRefusal(copy) ?? undefined}
                        aria-label={`Remove ${m.name}`}
                      >
                        Remove
                      </Button>
                    </span>
                  ) : (
                    <Button size="small" onClick={() => pull(m.id)} disabled={m.kind !== 'gguf' && m.role !== 'embedding'}>
                      Download
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {installed.length > 0 && (
        <span className={ui.muted}>Installed: {installed.map((m) => `${m.id} (${size(m.sizeBytes)})`).join(', ')}</span>
      )}
      {removing && (
        <ConfirmDialog title={`Remove ${removing.model.name}?`} confirmLabel="Remove model" onConfirm={() => remove(removing.copy)} onCancel={() => setRemoving(null)}>
          <span className={views.mono}>{removing.copy.file}</span>
          <span>Its files ({size(removing.copy.sizeBytes)}) are deleted from the models folder. You can download it again from the catalogue.</span>
        </ConfirmDialog>
      )}
      <form className={ui.row} onSubmit={importGguf}>
        <label htmlFor="import-gguf" className={ui.muted}>
          Import a GGUF file
        </label>
        <input id="import-gguf" className={ui.input} placeholder="/path/to/model.gguf" value={importPath} onChange={(e) => setImportPath(e.target.value)} />
        <Button type="submit" disabled={!importPath.trim()}>
          Import
        </Button>
      </form>
    </section>
  );
}
