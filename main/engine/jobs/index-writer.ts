// The engine's side of the one-writer lock (store/writer-lock.ts): its job queue takes the lock for each
// piece of work it writes with, waiting for another Loci process (and saying so) or refusing, and a call
// from the UI is refused at once with who is writing, rather than left waiting behind a long run.
import { describeHolder, IndexLockedError, lockTime, otherHostHint } from '../errors.js';
import { WriterLock, type LockHolder } from '../store/writer-lock.js';

export class IndexWriter {
  private readonly lock: WriterLock;
  /** Wait for another process's write to end (default), or fail with IndexLockedError. */
  wait = true;

  constructor(
    dbPath: string,
    /** A notice kept in the engine's warnings (a dead process's lock taken over). */
    warn: (message: string) => void,
    /** A passing notice (waiting for another process). */
    notify: (message: string) => void,
  ) {
    this.notify = notify;
    this.lock = new WriterLock(dbPath, (stale) =>
      warn(`A Loci process that is gone (pid ${stale.pid}, started ${lockTime(stale.started)}${stale.activity ? `, ${stale.activity}` : ''}) left this index locked; its lock was taken over. What it wrote is whole; a run it did not finish is finished by the next index run.`),
    );
  }

  private readonly notify: (message: string) => void;

  /** Runs `work` holding the lock; waits for (or, with `wait` off, refuses) another process writing. */
  run<T>(activity: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.lock.hold(activity, work, {
      wait: this.wait,
      signal,
      onWait: (h) => this.notify(`${describeHolder(h)} is ${h.activity || 'writing to this index'} — waiting for it to finish…${otherHostHint(h, this.lock.file)}`),
    });
  }

  /** Takes the lock only when it is free now (for writes that can wait for a later start); release after. */
  tryTake(activity: string): boolean {
    return this.lock.tryAcquire(activity) === null;
  }

  release(): void {
    this.lock.release();
  }

  /** Another live process writing this index now, if any. */
  holder(): LockHolder | null {
    return this.lock.isHeld ? null : this.lock.holder();
  }

  /** Refuses (409 in hosts) when another process writes the index now: a click should not hang behind it. */
  assertFree(): void {
    const h = this.holder();
    if (h) throw new IndexLockedError(h, this.lock.file);
  }
}
