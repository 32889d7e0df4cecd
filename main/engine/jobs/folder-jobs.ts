// One job per library folder: fast index → model pass → graph, under one AbortController, ending in
// one final report. The registry only tracks and cancels jobs; what a job does is the engine's.
import type { IndexReport } from '../api.js';
import { ConflictError } from '../errors.js';

export type JobPhase = 'fast' | 'model' | 'graph';

export interface JobControl {
  readonly signal: AbortSignal;
  setPhase(phase: JobPhase): void;
  /** The fast pass is done: the folder's notes are searchable (resolves `searchable`). */
  searchable(report: IndexReport): void;
}

export interface FolderJob {
  readonly root: string;
  readonly phase: JobPhase;
  /** Resolves after the fast pass (with the cancelled report when cancelled before); rejects when the job fails before. */
  readonly searchable: Promise<IndexReport>;
  /** The one final report (cancelled: true when cancelled); rejects when the job fails. */
  readonly done: Promise<IndexReport>;
  cancel(reason?: string): void;
}

export class AlreadyRunningError extends ConflictError {
  constructor(root: string) {
    super(`${root} is already being indexed`);
  }
}

export class FolderJobs {
  private readonly jobs = new Map<string, FolderJob>();

  get(root: string): FolderJob | undefined {
    return this.jobs.get(root);
  }

  phase(root: string): JobPhase | 'idle' {
    return this.jobs.get(root)?.phase ?? 'idle';
  }

  /** Whether a folder's fast pass is writing the index now. */
  anyInFastPass(): boolean {
    return [...this.jobs.values()].some((j) => j.phase === 'fast');
  }

  /** Starts `run` as the folder's job; throws AlreadyRunningError when one is running. */
  start(root: string, run: (control: JobControl) => Promise<IndexReport>, parent?: AbortSignal): FolderJob {
    if (this.jobs.has(root)) throw new AlreadyRunningError(root);
    const controller = new AbortController();
    const signal = parent ? AbortSignal.any([controller.signal, parent]) : controller.signal;
    let phase: JobPhase = 'fast';
    let markSearchable!: (r: IndexReport) => void;
    let failSearchable!: (e: unknown) => void;
    const searchable = new Promise<IndexReport>((resolve, reject) => {
      markSearchable = resolve;
      failSearchable = reject;
    });
    const done = (async () => {
      try {
        const report = await run({ signal, setPhase: (p) => (phase = p), searchable: markSearchable });
        markSearchable(report);
        return report;
      } catch (err) {
        failSearchable(err);
        throw err;
      } finally {
        this.jobs.delete(root);
      }
    })();
    // Callers may await either or neither (the UI awaits `searchable`): a failure reaches hosts as the
    // engine's error event, and an unawaited rejection would otherwise end the process (a server's).
    searchable.catch(() => undefined);
    done.catch(() => undefined);
    const job: FolderJob = {
      root,
      get phase() {
        return phase;
      },
      searchable,
      done,
      cancel: (reason = 'cancelled') => controller.abort(new CancelledError(reason)),
    };
    this.jobs.set(root, job);
    return job;
  }

  /** Cancels the folder's job and waits until it has stopped. */
  async stop(root: string): Promise<boolean> {
    const job = this.jobs.get(root);
    if (!job) return false;
    job.cancel();
    await job.done.catch(() => undefined);
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((root) => this.stop(root)));
  }
}

/** The reason a job's signal carries when the user cancelled it. */
export class CancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'AbortError';
  }
}
