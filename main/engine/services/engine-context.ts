// What every service shares: the open index, whether it may be written, the queue that keeps writes
// one at a time under the index's writer lock, the signal that Loci is closing, and the events hosts listen to.
import type { Db } from '../store/db.js';
import { readSettings, type Settings } from '../settings.js';
import { IndexWriter } from '../jobs/index-writer.js';
import { ReadOnlyIndexError } from '../read-only-index.js';
import { EngineEvents } from './engine-events.js';

export class EngineContext {
  readonly events = new EngineEvents();
  /** Aborted by close(): index and model runs stop between notes (each note is written whole or not at all). */
  private readonly closing = new AbortController();
  private running: Promise<unknown> = Promise.resolve();
  /** The index's one-writer lock across processes, held while the queue writes (jobs/index-writer.ts). */
  readonly writer: IndexWriter;

  constructor(
    readonly db: Db,
    readonly dbPath: string,
    readonly readOnly: boolean,
  ) {
    this.writer = new IndexWriter(dbPath, (message) => this.events.warn(message), (message) => this.events.publish({ type: 'warning', message }));
  }

  /** Every user setting with the value in force (stored, else its default). */
  settings(): Settings {
    return readSettings(this.db);
  }

  get closingSignal(): AbortSignal {
    return this.closing.signal;
  }

  get isClosing(): boolean {
    return this.closing.signal.aborted;
  }

  /** Index, model and switch runs stop between notes (close's first step). */
  abort(): void {
    this.closing.abort(new Error('Loci is closing'));
  }

  /** Resolves once the queued writes are done. */
  idle(): Promise<unknown> {
    return this.running;
  }

  untilClosed(signal?: AbortSignal): AbortSignal {
    return signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
  }

  /**
   * The one queue every write of this engine goes through, each under the index's writer lock: index runs,
   * model passes and graph builds never interleave, here or with another Loci process.
   */
  serialised<T>(work: () => Promise<T>, activity = 'writing to this index', signal?: AbortSignal): Promise<T> {
    const run = this.running.then(() => this.writer.run(activity, work, this.untilClosed(signal)));
    this.running = run.catch(() => undefined);
    return run;
  }

  assertWritable(action: string): void {
    if (this.readOnly) throw new ReadOnlyIndexError(this.db, this.dbPath, action);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
