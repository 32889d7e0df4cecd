// First run: the library is empty. Three steps — choose a folder, watch it index (counts and ETA), then
// an optional step offering the recommended embedding and chat models with their size, RAM and licence.
import { useEffect, useState } from 'react';
import type { EventPayload, Res } from '../../../main/contract/contract.js';
import { FolderField } from '../components/FolderField.js';
import { IndexProgress } from '../components/IndexProgress.js';
import { IndexEstimates, type EstimatedEmbedder } from '../components/IndexEstimates.js';
import { Badge, Button, ErrorBox, Notice, ProgressBar, ui } from '../components/ui.js';
import { useApp } from '../lib/app-context.js';
import { plural } from '../lib/format.js';
import { useCall } from '../lib/use-call.js';
import { actionLabel, embedderOffer, inUse, inUseNotice, installedCopy, settingFor, type CatalogueModel, type InstalledModel } from '../lib/model-use.js';
import type { LibraryState } from '../lib/use-library-activity.js';
import { useIndexFolder } from './Library.js';
import { languageName } from '../lib/languages.js';
import views from './views.module.css';
import css from './Onboarding.module.css';

type Progress = EventPayload<'models.progress'>;

const STEPS = ['Choose your notes', 'Index them', 'Models (optional)'] as const;

export function Onboarding({ library, onDone }: { library: LibraryState; onDone(): void }) {
  const { client } = useApp();
  const [root, setRoot] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const index = useIndexFolder(library, (e) => {
    setError(e);
    setRoot(null);
  });
  // The engine may spell the folder differently (resolved path): follow the run it reports.
  const runRoot = root && (library.activity[root] ? root : Object.keys(library.activity).find((r) => library.activity[r]?.running || library.activity[r]?.report));
  const run = runRoot ? library.activity[runRoot] : undefined;
  const finished = !!run?.report && !run.running;
  const step = !root ? 0 : finished ? 2 : 1;

  return (
    <section className={views.view} aria-labelledby="welcome-title" data-testid="onboarding">
      <div className={views.header}>
        <h1 id="welcome-title" className={ui.heading}>
          Welcome to Loci
        </h1>
        <Button size="small" onClick={onDone}>
          Skip setup
        </Button>
      </div>
      <ol className={css.steps} aria-label="Setup steps">
        {STEPS.map((s, i) => (
          <li key={s} className={`${css.step} ${i === step ? css.current : ''} ${i < step ? css.done : ''}`} aria-current={i === step ? 'step' : undefined}>
            <span className={css.stepNumber} aria-hidden>
              {i < step ? '✓' : i + 1}
            </span>
            {s}
          </li>
        ))}
      </ol>

      {step === 0 && (
        <div className={`${ui.panel} ${ui.stack}`}>
          <h2 className={ui.subheading}>No notes folder yet</h2>
          <p className={css.lead}>
            Point Loci at a folder of Markdown or text notes (an Obsidian vault, a Foam or Logseq folder, a folder of .md files). It reads them on this machine, finds the facts, topics
            and links between them, and answers questions with citations to your lines. Nothing leaves the computer.
          </p>
          <FolderField
            autoFocus
            onSubmit={(r) => {
              setError(null);
              setRoot(r);
              index(r);
            }}
          />
          <ErrorBox error={error} />
        </div>
      )}

      {step === 1 && root && (
        <div className={`${ui.panel} ${ui.stack}`} data-testid="folder-card">
          <h2 className={ui.subheading}>Indexing your notes</h2>
          <span className={views.mono}>{runRoot ?? root}</span>
          <span className={ui.muted}>Fast mode needs no model: facts, mind maps and the graph come from the notes' own structure. You can start asking as soon as this finishes.</span>
          {run?.running || !run ? (
            <IndexProgress
              root={runRoot ?? root}
              activity={run ?? { running: true, progress: null, phases: {}, report: null, error: null, cancelling: false, cancelled: false }}
              onCancel={() => {
                library.markCancelling(runRoot ?? root);
                client.call('library.cancelIndex', { root: runRoot ?? root }).catch(setError);
              }}
            />
          ) : null}
          {run?.cancelled && <Notice>Cancelled. Notes finished so far are kept.</Notice>}
          <ErrorBox error={run?.error ?? error} />
        </div>
      )}

      {step === 2 && run?.report && (
        <>
          <div className={`${ui.panel} ${ui.stack}`} data-testid="index-report">
            <h2 className={ui.subheading}>{run.cancelled ? 'Indexing stopped' : 'Your notes are indexed'}</h2>
            <span>
              {plural(run.report.counts.documents, 'note')}, {plural(run.report.counts.fcis, 'fact')}, {plural(run.report.counts.entities, 'entity', 'entities')} in {run.report.seconds.toFixed(1)} s
              {run.report.skipped.length ? ` · ${plural(run.report.skipped.length, 'file')} skipped (see the Library)` : ''}.
            </span>
          </div>
          <ModelStep onDone={onDone} />
        </>
      )}
    </section>
  );
}

/** The catalogue's first embedding and chat models, with a download that shows progress and can be cancelled. */
function ModelStep({ onDone }: { onDone(): void }) {
  const models = useCall('models.list', {});
  const catalogue = models.data?.catalogue ?? [];
  const { indexVersion } = useApp();
  const stats = useCall('stats', {}, [indexVersion]);
  const recommended = (role: CatalogueModel['role']) => catalogue.find((m) => m.role === role && m.recommended) ?? catalogue.find((m) => m.role === role);
  // The embedding model is picked for the notes' languages (model-use.ts embedderOffer).
  const embedder = embedderOffer(catalogue, stats.data?.languages);
  const picks = [embedder?.model, recommended('chat')].filter((m): m is CatalogueModel => !!m);
  const settings = useCall('settings.get', {});
  const installed = models.data?.installed ?? [];
  // The offered embedding model is measured once it is installed (a probe needs the model itself).
  const offeredCopy = embedder && installedCopy(embedder.model, installed);
  const estimated: EstimatedEmbedder[] = [{ spec: 'glove', name: 'GloVe (built in, in use)' }];
  if (embedder && offeredCopy?.embedder) estimated.push({ spec: offeredCopy.embedder, name: embedder.model.name });

  return (
    <div className={`${ui.panel} ${ui.stack}`} aria-labelledby="models-step-title" data-testid="model-step">
      <h2 id="models-step-title" className={ui.subheading}>
        Optional: better answers with local models
      </h2>
      <span className={ui.muted}>
        Both run on this machine. An embedding model finds passages by meaning (not only by words); a chat model writes answers and reads each note more deeply. You can add
        them later under Settings &amp; models.
      </span>
      <ErrorBox error={models.error} />
      {models.loading && !models.data && <span className={ui.muted}>Loading the model catalogue…</span>}
      <div className={css.models}>
        {picks.map((m) => (
          <ModelOffer
            key={m.id}
            model={m}
            reason={m === embedder?.model ? embedder.reason : null}
            copy={installedCopy(m, installed)}
            settings={settings.data}
            onChanged={() => {
              models.reload();
              settings.reload();
            }}
            downloading={models.data?.downloading.includes(m.id) ?? false}
          />
        ))}
      </div>
      {models.data && (
        <>
          <IndexEstimates id="onboarding-estimates-title" title="How long indexing your notes takes" embedders={estimated} />
          {embedder && !offeredCopy && <span className={ui.muted}>Once {embedder.model.name} is downloaded, Loci measures how long it takes on your notes.</span>}
        </>
      )}
      <span className={ui.row}>
        <Button variant="primary" onClick={onDone}>
          Go to my library
        </Button>
      </span>
    </div>
  );
}

function ModelOffer({
  model,
  reason,
  copy,
  settings,
  downloading,
  onChanged,
}: {
  model: CatalogueModel;
  /** Why this model is offered, when it is not the catalogue's recommendation. */
  reason: string | null;
  /** The installed copy, once there is one. */
  copy: InstalledModel | undefined;
  settings: Record<string, unknown> | null;
  downloading: boolean;
  onChanged(): void;
}) {
  const { client } = useApp();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState(downloading);
  const [result, setResult] = useState<Res<'models.pull'> | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => client.on('models.progress', (p) => p.id === model.id && setProgress(p)), [client, model.id]);

  async function pull() {
    setError(null);
    setCancelled(false);
    setBusy(true);
    try {
      setResult(await client.call('models.pull', { id: model.id }));
    } catch (err) {
      if (/cancel|abort/i.test(err instanceof Error ? err.message : String(err))) setCancelled(true);
      else setError(err);
    } finally {
      setBusy(false);
      onChanged();
    }
  }

  async function use() {
    if (!copy) return;
    setError(null);
    try {
      await client.call('settings.update', { patch: settingFor(model, copy) });
      onChanged();
    } catch (err) {
      setError(err);
    }
  }

  const ram = model.ramLabel;
  const setting = copy && settingFor(model, copy);
  const using = !!setting && inUse(settings, setting);
  return (
    <article className={`${css.offer} ${ui.stack}`} aria-label={`${model.role === 'chat' ? 'Chat' : 'Embedding'} model ${model.name}`} data-testid="model-offer">
      <span className={ui.row}>
        <strong>{model.name}</strong>
        <Badge>{model.role === 'chat' ? 'chat model' : 'embedding model'}</Badge>
        {model.recommended && <Badge title="The catalogue's first pick for a laptop">recommended</Badge>}
        {model.verified && <Badge title="The download is checked against the publisher's checksum">checksum verified</Badge>}
      </span>
      <span className={ui.muted}>{model.description}</span>
      {reason && <span data-testid="offer-reason">{reason}</span>}
      <dl className={css.facts}>
        <dt>Download</dt>
        <dd>{model.sizeBytes !== null ? size(model.sizeBytes) : (model.sizeLabel ?? 'unknown')}</dd>
        <dt>Memory</dt>
        <dd>{ram ? `${ram} while running` : 'not listed in the catalogue'}</dd>
        <dt>Languages</dt>
        <dd>{model.languages.map(languageName).join(', ') || '—'}</dd>
        <dt>Licence</dt>
        <dd>{model.licence}</dd>
      </dl>
      {copy || result ? (
        <span className={ui.stack}>
          <span className={ui.muted} role="status">
            Installed{result ? (result.verified ? ', checksum verified' : ', no published checksum to verify') : ''}
            {result?.resumed ? ' (resumed)' : ''}.{using && setting ? ` ${inUseNotice(setting, model.name)}` : ''}
          </span>
          {setting && (
            <span className={ui.row}>
              <Button onClick={use} disabled={using} aria-label={`${actionLabel(setting, using)}: ${model.name}`}>
                {actionLabel(setting, using)}
              </Button>
            </span>
          )}
        </span>
      ) : busy ? (
        <span className={ui.stack}>
          <ProgressBar value={progress?.received ?? 0} max={progress?.total ?? 0} label={`Downloading ${model.name}`} />
          <span className={ui.row}>
            <span className={ui.muted} aria-live="polite">
              {progress ? `${size(progress.received)}${progress.total ? ` of ${size(progress.total)}` : ''}${progress.resumed ? ' · resumed' : ''}` : 'Starting…'}
            </span>
            <Button size="small" onClick={() => client.call('models.cancelPull', { id: model.id }).catch(setError)}>
              Cancel
            </Button>
          </span>
        </span>
      ) : (
        <span className={ui.row}>
          <Button onClick={pull} disabled={model.kind !== 'gguf' && model.role !== 'embedding'}>
            {cancelled ? 'Resume download' : 'Download'}
          </Button>
          {cancelled && <span className={ui.muted}>Paused; the partial file is kept.</span>}
        </span>
      )}
      <ErrorBox error={error} />
    </article>
  );
}

function size(bytes: number): string {
  return bytes > 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${(bytes / 1e6).toFixed(0)} MB`;
}
