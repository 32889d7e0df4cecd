// One writer per index across processes: an advisory lock file beside the database (`<db>.lock`) naming
// its holder. Written whole (a temp file hard-linked into place, which fails when one exists), so a reader
// never sees half of it; a holder that died on this host is detected by its PID (and its start time, so
// a reused PID is not taken for it) and its lock taken over. SQLite's own locks last one transaction; this
// one lasts a whole write job, so two index runs never interleave their notes.
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { IndexLockedError, type LockHolder } from '../errors.js';

export type { LockHolder };

/** A stale-lock breaker left by a process killed mid-break is ignored after this long. */
const BREAKER_STALE_MS = 10_000;
const POLL_MS = 200;

export interface AcquireOptions {
  /** Wait for the holder to finish (default); false throws IndexLockedError at once. */
  wait?: boolean;
  signal?: AbortSignal;
  /** Called once when this acquire starts waiting, with who holds the lock. */
  onWait?: (holder: LockHolder) => void;
}

export class WriterLock {
  readonly file: string;
  private held = 0;
  private token: string | null = null;
  private activity = '';
  private readonly onExit = () => this.releaseNow();

  constructor(
    dbPath: string,
    /** Told when a dead process's lock is taken over (e.g. to warn that its run was cut short). */
    private readonly onTakeOver: (stale: LockHolder) => void = () => undefined,
  ) {
    this.file = `${dbPath}.lock`;
  }

  get isHeld(): boolean {
    return this.held > 0;
  }

  /** The other live process holding the lock, or null (none, or a dead one's lock, which is ignored). */
  holder(): LockHolder | null {
    const h = readHolder(this.file);
    if (!h || (this.token && h.token === this.token)) return null;
    return isStale(h) ? null : h;
  }

  /** Takes the lock now or returns its live holder; reentrant within this object. */
  tryAcquire(activity: string): LockHolder | null {
    if (this.held > 0) {
      this.held++;
      return null;
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const token = randomBytes(8).toString('hex');
      if (createExclusive(this.file, holderRecord(token, activity))) {
        this.token = token;
        this.activity = activity;
        this.held = 1;
        process.once('exit', this.onExit);
        return null;
      }
      const h = readHolder(this.file);
      if (!h) continue; // released meanwhile, or unreadable garbage taken away by breakStale below
      if (!isStale(h)) return h;
      if (breakStale(this.file, h)) this.onTakeOver(h);
    }
    return readHolder(this.file) ?? unknownHolder(this.file);
  }

  /** Takes the lock, waiting (polling) while another live process holds it unless `wait` is false. */
  async acquire(activity: string, opts: AcquireOptions = {}): Promise<void> {
    let told = false;
    for (;;) {
      const holder = this.tryAcquire(activity);
      if (!holder) return;
      if (opts.wait === false) throw new IndexLockedError(holder, this.file);
      opts.signal?.throwIfAborted();
      if (!told) opts.onWait?.(holder);
      told = true;
      await sleep(POLL_MS + Math.random() * POLL_MS, opts.signal);
    }
  }

  /** Runs `work` holding the lock. */
  async hold<T>(activity: string, work: () => Promise<T>, opts: AcquireOptions = {}): Promise<T> {
    await this.acquire(activity, opts);
    const before = this.activity;
    if (this.held > 1 && activity !== before) this.setActivity(activity);
    try {
      return await work();
    } finally {
      if (this.held > 1 && activity !== before) this.setActivity(before);
      this.release();
    }
  }

  /** What the holder is doing, as others are told it ("indexing /notes"). */
  setActivity(activity: string): void {
    if (!this.token) return;
    this.activity = activity;
    const tmp = `${this.file}.${process.pid}.${this.token}.tmp`;
    try {
      writeWhole(tmp, holderRecord(this.token, activity));
      // Still ours (nobody takes a live process's lock), so replacing it in place is safe.
      renameSync(tmp, this.file);
    } catch {
      tryUnlink(tmp); // the activity is information only
    }
  }

  release(): void {
    if (this.held === 0) return;
    this.held--;
    if (this.held === 0) this.releaseNow();
  }

  private releaseNow(): void {
    process.off('exit', this.onExit);
    this.held = 0;
    const token = this.token;
    this.token = null;
    if (token && readHolder(this.file)?.token === token) tryUnlink(this.file);
  }
}

/** The lock file's holder, or null when there is none (or it cannot be read). */
export function readHolder(file: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string' && typeof h.started === 'string') {
      return { pid: h.pid, host: h.host, started: h.started, activity: String(h.activity ?? ''), token: String(h.token ?? ''), procStart: typeof h.procStart === 'number' ? h.procStart : null };
    }
  } catch {
    // not JSON: below
  }
  return unknownHolder(file);
}

/** A lock file that is not ours to read (garbage, another tool's): it names no live process, so it is stale. */
function unknownHolder(file: string): LockHolder {
  let started = new Date(0).toISOString();
  try {
    started = statSync(file).mtime.toISOString();
  } catch {
    // gone
  }
  return { pid: 0, host: hostname(), started, activity: 'unknown', token: 'unreadable', procStart: null };
}

/** A holder that is certainly gone: a process of this host that is dead (or a zombie), or whose PID now belongs to another process. */
export function isStale(h: LockHolder): boolean {
  if (h.host !== hostname()) return false; // another machine's process cannot be checked from here
  if (h.pid <= 0) return true;
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = procStat(h.pid);
  if (!now) return false;
  if (now.state === 'Z' || now.state === 'X') return true;
  return h.procStart !== null && now.start !== h.procStart;
}

function holderRecord(token: string, activity: string): string {
  const h: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), activity, token, procStart: procStat(process.pid)?.start ?? null };
  return `${JSON.stringify(h)}\n`;
}

/** Creates `file` with `content` only when it does not exist, never visible half-written. */
function createExclusive(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeWhole(tmp, content);
  try {
    linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    tryUnlink(tmp);
  }
}

/**
 * Removes a dead holder's lock, under a short-lived breaker file so that two processes finding the same
 * stale lock cannot remove a fresh one the first of them has just taken. True when this call removed it.
 */
function breakStale(file: string, stale: LockHolder): boolean {
  const breaker = `${file}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, 'wx');
  } catch {
    try {
      if (Date.now() - statSync(breaker).mtimeMs > BREAKER_STALE_MS) tryUnlink(breaker);
    } catch {
      // gone meanwhile
    }
    return false;
  }
  try {
    const now = readHolder(file);
    if (!now || now.token !== stale.token || now.pid !== stale.pid || now.started !== stale.started) return false;
    tryUnlink(file);
    return true;
  } finally {
    closeSync(fd);
    tryUnlink(breaker);
  }
}

function writeWhole(file: string, content: string): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Linux's /proc/<pid>/stat: the process state and its start time (clock ticks since boot); null elsewhere. */
function procStat(pid: number): { state: string; start: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[19]);
    return fields[0] && Number.isFinite(start) ? { state: fields[0], start } : null;
  } catch {
    return null;
  }
}

function tryUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
