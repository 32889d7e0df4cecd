// How long indexing this library takes with each embedder, measured on this computer by a short probe of
// the real index run (library.estimate): one embedder at a time, the probe's basis in each row's details.
import { useEffect, useState } from 'react';
import type { Res } from '../../../main/contract/contract.js';
import { useApp } from '../lib/app-context.js';
import { errorText } from '../lib/error-text.js';
import { aboutDuration, plural } from '../lib/format.js';
import { Button, ui } from './ui.js';

type Estimate = Res<'library.estimate'>;
type Row = { state: 'waiting' | 'measuring' } | { state: 'done'; estimate: Estimate } | { state: 'failed'; message: string };

export interface EstimatedEmbedder {
  spec: string;
  name: string;
}

export function IndexEstimates({ embedders, title, id }: { embedders: readonly EstimatedEmbedder[]; title: string; id: string }) {
  const { client } = useApp();
  const [rows, setRows] = useState<Record<string, Row>>({});
  // Bumped by "Measure again": every embedder is probed anew instead of reusing what the engine kept.
  const [round, setRound] = useState(0);
  const specs = embedders.map((e) => e.spec).join('\n');

  useEffect(() => {
    let live = true;
    const set = (spec: string, row: Row) => {
      if (live) setRows((all) => ({ ...all, [spec]: row }));
    };
    const list = specs.split('\n').filter(Boolean);
    list.forEach((spec) => set(spec, { state: 'waiting' }));
    // One at a time: two probes at once would each time the other's work.
    void (async () => {
      for (const spec of list) {
        if (!live) return;
        set(spec, { state: 'measuring' });
        try {
          set(spec, { state: 'done', estimate: await client.call('library.estimate', { embedder: spec, refresh: round > 0 }) });
        } catch (err) {
          set(spec, { state: 'failed', message: errorText(err).what });
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [client, specs, round]);

  const busy = embedders.some((e) => ['waiting', 'measuring'].includes(rows[e.spec]?.state ?? 'waiting'));
  return (
    <section className={ui.stack} aria-labelledby={id} data-testid="index-estimates">
      <h3 id={id} className={ui.subheading}>
        {title}
      </h3>
      <span className={ui.muted}>Measured on this computer: Loci indexes a few of your notes with each embedder into a scratch index and scales the time to the whole library.</span>
      <table className={ui.table}>
        <thead>
          <tr>
            <th scope="col">Embedder</th>
            <th scope="col">Indexing this library</th>
          </tr>
        </thead>
        <tbody>
          {embedders.map((e) => {
            const row = rows[e.spec] ?? { state: 'waiting' };
            return (
              <tr key={e.spec} data-testid="index-estimate">
                <th scope="row">{e.name}</th>
                <td title={row.state === 'done' ? basis(row.estimate) : undefined}>
                  <span aria-live="polite">
                  {row.state === 'waiting' && <span className={ui.muted}>waiting to measure…</span>}
                  {row.state === 'measuring' && <span className={ui.muted}>measuring…</span>}
                  {row.state === 'failed' && <span>could not measure: {row.message}</span>}
                  {row.state === 'done' && (
                    <details>
                      <summary>{aboutDuration(row.estimate.seconds)}</summary>
                      <span className={ui.muted}>{basis(row.estimate)}</span>
                    </details>
                  )}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <span className={ui.row}>
        <Button size="small" onClick={() => setRound((r) => r + 1)} disabled={busy}>
          {busy ? 'Measuring…' : 'Measure again'}
        </Button>
      </span>
    </section>
  );
}

/** How the estimate was made, in a sentence: the sample, its time, the model's load, when. */
function basis(e: Estimate): string {
  const p = e.probe;
  const kb = (b: number) => `${Math.max(1, Math.round(b / 1024)).toLocaleString()} KB`;
  const when = new Date(e.measuredAt).toLocaleString();
  return (
    `Indexed ${p.sampleNotes} of ${plural(e.notes, 'note')} (${kb(p.sampleBytes)} of ${kb(e.bytes)}) into a scratch index in ${p.probeSeconds.toFixed(1)} s, ` +
    `loading the embedder took ${p.loadSeconds.toFixed(1)} s; the rest scaled by size. Measured ${when}${e.cached ? ' (kept from then)' : ''}.`
  );
}
