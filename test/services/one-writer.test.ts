// Two engines on one index, as two Loci processes would be (the lock file names a PID, so two engines
// in one process exclude each other the same way): one writer at a time, the other waits or is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine, type EngineEvent } from '../../main/engine/engine.js';
import { IndexLockedError } from '../../main/engine/errors.js';
import { engineError, httpStatus } from '../../main/contract/errors.js';
import { writeGeneratedNotes } from '../support/generated-notes.js';
import { FolderJobs } from '../../main/engine/jobs/folder-jobs.js';

let dir: string;
let notes: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-one-writer-'));
  notes = join(dir, 'notes');
  await writeGeneratedNotes(notes, 120);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('one writer per index', () => {
  it('refuses a UI start while another engine indexes (409, holder named), queues an index call behind it, and both runs end in one clean index', async () => {
    const dbPath = join(dir, 'shared.db');
    const a = await LociEngine.open({ dbPath });
    const b = await LociEngine.open({ dbPath });
    const events: EngineEvent[] = [];
    b.events.subscribe((e) => events.push(e));
    try {
      const first = a.library.startJob(notes);
      // The lock is taken as the job's first write begins.
      while (!existsSync(`${dbPath}.lock`)) await new Promise((r) => setTimeout(r, 5));
      const refused = (() => {
        try {
          b.library.startJob(notes);
        } catch (err) {
          return err;
        }
        return null;
      })();
      expect(refused).toBeInstanceOf(IndexLockedError);
      expect((refused as Error).message).toMatch(/^Another Loci process \(pid \d+ .*\) is indexing .*notes: an index takes one writer at a time/);
      const wire = engineError('library.index', refused);
      expect(httpStatus(wire)).toBe(409);
      expect(wire).toMatchObject({ code: 'locked', holder: { pid: process.pid, activity: `indexing ${notes}` } });
      await expect(b.library.removeFolder(notes)).rejects.toBeInstanceOf(IndexLockedError);

      const second = b.library.index(notes);
      const firstReport = await first.done;
      const secondReport = await second;
      expect(firstReport.changed).toBe(120);
      // The second run starts after the first has committed: every note is unchanged, nothing written twice.
      expect(secondReport.changed).toBe(0);
      expect(secondReport.unchanged).toBe(120);
      expect(secondReport.counts).toEqual(firstReport.counts);
      expect(events.some((e) => e.type === 'warning' && /^another Loci process \(pid \d+.*\) is indexing .*notes — waiting for it to finish…$/.test(e.message))).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
    expect(existsSync(`${dbPath}.lock`)).toBe(false);
  });

  it('with waitForWriter off (--no-wait), fails at once naming the holder and writes nothing', async () => {
    const dbPath = join(dir, 'nowait.db');
    const a = await LociEngine.open({ dbPath });
    const b = await LociEngine.open({ dbPath, waitForWriter: false });
    try {
      const first = a.library.startJob(notes);
      while (!existsSync(`${dbPath}.lock`)) await new Promise((r) => setTimeout(r, 5));
      await expect(b.library.index(notes)).rejects.toThrow(IndexLockedError);
      await first.done;
      expect(b.views.stats().counts.documents).toBe(120);
      // Once the first is done, the same engine indexes (nothing changed).
      expect((await b.library.index(notes)).unchanged).toBe(120);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a failed job nobody awaits', () => {
  it('does not become an unhandled rejection (what ended `loci serve` when SQLite said "database is locked")', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const jobs = new FolderJobs();
      // The UI awaits `searchable` only; a failure after it used to leave `done` rejected with no handler.
      const job = jobs.start('/notes', async (control) => {
        control.searchable({ root: '/notes', counts: {} as never, changed: 0, unchanged: 0, moved: 0, removed: 0, skipped: [], readAs: [], seconds: 0 });
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      });
      await job.searchable;
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
      await expect(job.done).rejects.toThrow('database is locked');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
