import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStale, readHolder, WriterLock, type LockHolder } from '../../main/engine/store/writer-lock.js';
import { IndexLockedError } from '../../main/engine/errors.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-lock-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Linux's start time of a process, as the lock records it. */
function procStart(pid: number): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

function record(file: string, h: Partial<LockHolder> & { pid: number }): void {
  writeFileSync(file, JSON.stringify({ host: hostname(), started: new Date().toISOString(), activity: 'indexing /elsewhere', token: `t${h.pid}`, procStart: procStart(h.pid), ...h }));
}

/** A real process that has exited (and been reaped): its PID names nobody. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('the writer lock beside an index', () => {
  it('names its holder in <db>.lock while held and removes the file when released', () => {
    const db = join(dir, 'a.db');
    const lock = new WriterLock(db);
    expect(lock.tryAcquire('indexing /notes')).toBeNull();
    const h = readHolder(`${db}.lock`)!;
    expect(h).toMatchObject({ pid: process.pid, host: hostname(), activity: 'indexing /notes' });
    expect(Number.isNaN(Date.parse(h.started))).toBe(false);
    // Reentrant: the engine's nested writes take it again.
    expect(lock.tryAcquire('more')).toBeNull();
    lock.release();
    expect(existsSync(`${db}.lock`)).toBe(true);
    lock.release();
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it('makes a second writer wait until the first releases, or refuses it naming the holder', async () => {
    const db = join(dir, 'b.db');
    const first = new WriterLock(db);
    const second = new WriterLock(db);
    await first.acquire('indexing /notes');
    expect(second.holder()?.pid).toBe(process.pid);
    const refused = await second.acquire('indexing /other', { wait: false }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IndexLockedError);
    expect((refused as IndexLockedError).holder.pid).toBe(process.pid);
    expect((refused as IndexLockedError).message).toMatch(new RegExp(`^Another Loci process \\(pid ${process.pid} on .*\\) is indexing /notes: an index takes one writer at a time`));
    expect((refused as IndexLockedError).code).toBe('locked');

    const waits: LockHolder[] = [];
    let got = false;
    const waiting = second.acquire('indexing /other', { onWait: (h) => waits.push(h) }).then(() => (got = true));
    await new Promise((r) => setTimeout(r, 600));
    expect(got).toBe(false);
    first.release();
    await waiting;
    expect(got).toBe(true);
    expect(waits).toHaveLength(1);
    expect(waits[0]!.activity).toBe('indexing /notes');
    expect(readHolder(`${db}.lock`)?.activity).toBe('indexing /other');
    second.release();
  });

  it('takes over the lock of a process that died, and says so', async () => {
    const db = join(dir, 'c.db');
    const pid = await deadPid();
    record(`${db}.lock`, { pid });
    const stale = readHolder(`${db}.lock`)!;
    expect(isStale(stale)).toBe(true);
    const taken: LockHolder[] = [];
    const lock = new WriterLock(db, (h) => taken.push(h));
    expect(lock.holder()).toBeNull();
    expect(lock.tryAcquire('indexing /notes')).toBeNull();
    expect(taken.map((h) => h.pid)).toEqual([pid]);
    expect(readHolder(`${db}.lock`)?.pid).toBe(process.pid);
    lock.release();
  });

  it('waits for a live process of this host, and takes over once it is killed', async () => {
    const db = join(dir, 'd.db');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((r) => child.once('spawn', r));
    try {
      record(`${db}.lock`, { pid: child.pid! });
      const lock = new WriterLock(db);
      expect(lock.tryAcquire('x')?.pid).toBe(child.pid);
      const waiting = lock.acquire('indexing /notes');
      child.kill('SIGKILL');
      await waiting;
      expect(readHolder(`${db}.lock`)?.pid).toBe(process.pid);
      lock.release();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it.skipIf(procStart(process.pid) === null)('does not take a reused PID for the holder (Linux: the process start time differs)', () => {
    const db = join(dir, 'e.db');
    record(`${db}.lock`, { pid: process.pid, procStart: (procStart(process.pid) ?? 0) - 1, token: 'from-an-earlier-process' });
    const lock = new WriterLock(db);
    expect(lock.tryAcquire('indexing /notes')).toBeNull();
    lock.release();
  });

  it('treats a garbled lock file as stale, and never takes one from another host', async () => {
    const db = join(dir, 'f.db');
    writeFileSync(`${db}.lock`, 'not json');
    const lock = new WriterLock(db);
    expect(lock.tryAcquire('indexing /notes')).toBeNull();
    lock.release();

    record(`${db}.lock`, { pid: 1, host: 'some-other-machine' });
    const holder = lock.tryAcquire('indexing /notes');
    expect(holder).toMatchObject({ pid: 1, host: 'some-other-machine' });
    expect(existsSync(`${db}.lock`)).toBe(true);
    // Only a person can tell whether it is gone: the error says which file to remove.
    await expect(lock.acquire('indexing /notes', { wait: false })).rejects.toThrow(`If no Loci runs on some-other-machine any more, delete ${db}.lock.`);
  });
});
