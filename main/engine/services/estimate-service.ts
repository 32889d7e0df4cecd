// Index-time estimates per embedder for Settings and the first run: one probe at a time (two would time
// each other), each kept per embedder and library fingerprint in the index's settings, so opening Settings
// does not measure again until the library's size changes markedly or the user asks.
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { extrapolate, measureLibrary, probeIndexTime, type LibraryFolder } from '../index/estimate.js';
import { scopeFilter } from '../library/scope.js';
import { getFolder } from '../store/library.js';
import { getSetting, setSetting } from '../store/settings.js';
import { UserError } from '../errors.js';
import type { IndexEstimate, ProbeResult } from '../api.js';
import type { EngineContext } from './engine-context.js';

/** Settings key: the last probe per embedder spec, with the fingerprint of the library it measured. */
const ESTIMATES = 'index_estimates';
/** Library sizes within one step of this ratio share a fingerprint: a few edited notes keep the probe. */
const SIZE_STEP = 1.25;

interface KeptProbe {
  fingerprint: string;
  probe: ProbeResult;
  measuredAt: string;
}

export class EstimateService {
  private queue: Promise<unknown> = Promise.resolve();
  /** Probes under way, by spec and fingerprint: a second ask for one waits for it instead of measuring twice. */
  private readonly running = new Map<string, Promise<KeptProbe>>();
  /** Probes of this process by spec, also when the index is read-only or its write is still queued. */
  private readonly kept = new Map<string, KeptProbe>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly libraryRoots: () => string[],
  ) {}

  /** The estimate for the library's folders (or `root` alone) with the embedder `spec`; probes only when none is kept. */
  async estimate(spec: string, opts: { root?: string; refresh?: boolean } = {}): Promise<IndexEstimate> {
    const roots = opts.root ? [resolve(opts.root)] : this.libraryRoots();
    if (roots.length === 0) throw new UserError('The library has no folder yet: add one to estimate how long indexing it takes.');
    const { maxBytes } = this.ctx.settings();
    const folders: LibraryFolder[] = roots.map((root) => {
      const f = getFolder(this.ctx.db, root);
      return { root, excluded: f ? scopeFilter({ include: f.include, exclude: f.exclude }) : undefined };
    });
    const library = await measureLibrary(folders, { maxBytes, signal: this.ctx.closingSignal });
    const fingerprint = libraryFingerprint(roots, library.bytes);
    const kept = this.kept.get(spec) ?? getSetting<Record<string, KeptProbe>>(this.ctx.db, ESTIMATES, {})[spec];
    const reuse = !opts.refresh && kept?.fingerprint === fingerprint;
    const key = `${spec}\0${fingerprint}`;
    let probe = reuse ? Promise.resolve(kept) : this.running.get(key);
    if (!probe) {
      probe = this.probe(spec, library, maxBytes, fingerprint).finally(() => this.running.delete(key));
      this.running.set(key, probe);
    }
    const done = await probe;
    return { embedder: spec, seconds: extrapolate(done.probe, library), notes: library.notes, bytes: library.bytes, probe: done.probe, measuredAt: done.measuredAt, cached: reuse };
  }

  private probe(spec: string, library: Awaited<ReturnType<typeof measureLibrary>>, maxBytes: number, fingerprint: string): Promise<KeptProbe> {
    const run = this.queue.then(async () => {
      const probe = await probeIndexTime(spec, library, { maxBytes, signal: this.ctx.closingSignal });
      const kept: KeptProbe = { fingerprint, probe, measuredAt: new Date().toISOString() };
      this.kept.set(spec, kept);
      // Not awaited: the write queues behind a running index job, and the answer need not wait for it.
      if (!this.ctx.readOnly) {
        void this.ctx
          .serialised(async () => setSetting(this.ctx.db, ESTIMATES, { ...getSetting(this.ctx.db, ESTIMATES, {}), [spec]: kept }), 'keeping an index-time estimate')
          .catch(() => undefined);
      }
      return kept;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * The folders, the library's size class and the machine: a probe is reused for the same folders at about
 * the same size on the same processors.
 */
export function libraryFingerprint(roots: readonly string[], bytes: number): string {
  const sizeClass = bytes > 0 ? Math.round(Math.log(bytes) / Math.log(SIZE_STEP)) : 0;
  const machine = `${cpus().length}×${cpus()[0]?.model ?? ''}`;
  return createHash('sha256').update(JSON.stringify([[...roots].sort(), sizeClass, machine])).digest('hex').slice(0, 16);
}
