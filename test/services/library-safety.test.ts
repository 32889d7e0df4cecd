// Issue 9 probes 1, 2 and 4 on real folders and a real index: system trees refused, links leading out
// of a notes folder never followed (scan, reader, watcher, note viewer), folders saved only after a run
// that validated and finished, and a scan that stops when cancelled.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LociEngine } from '../../main/engine/engine.js';
import { scanFolder } from '../../main/engine/ingest/scan.js';
import { readNote } from '../../main/engine/ingest/read.js';
import m0001 from '../../main/engine/store/migrations/0001_initial.js';

let dir: string;
let notes: string;
let outside: string;
let engine: LociEngine;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-safety-'));
  notes = join(dir, 'notes');
  outside = join(dir, 'outside');
  await mkdir(notes);
  await mkdir(outside);
  await writeFile(join(notes, 'lighthouse.md'), '# Lighthouse\n\nThe keeper trims the lamp wick every evening on the northern cape.\n');
  await writeFile(join(outside, 'secret.md'), '# Secret\n\nThe vault combination is kestrel-4471-harbour.\n');
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
});

afterEach(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

const rootsOfDocuments = () => new Set(engine.views.documents().map((d) => d.root));

describe('probe 1: system trees are refused, links to / are not walked', () => {
  it('refuses / and /proc without saving them', async () => {
    await expect(engine.library.index('/proc')).rejects.toThrow(/system \(pseudo\) filesystem/);
    await expect(engine.library.index('/')).rejects.toThrow(/root of the filesystem/);
    expect(engine.library.roots()).toEqual([]);
    expect(engine.library.folders()).toEqual([]);
    expect(rootsOfDocuments().size).toBe(0);
    expect(() => engine.library.watch('/proc')).toThrow(/system/);
  });

  it('indexes a folder holding a link to / without following it, and watches it without walking the machine', async () => {
    await symlink('/', join(notes, 'whole-disk'));
    const report = await engine.library.index(notes);
    expect(report.changed).toBe(1);
    expect(report.skipped).toEqual([expect.objectContaining({ relPath: 'whole-disk', reason: 'unsupported' })]);
    const watch = engine.library.watch(notes);
    try {
      await watch.ready;
      // Before: chokidar followed the link and watched every directory of the machine.
      expect(watch.watchedDirectories?.()).toBeLessThan(5);
    } finally {
      await watch.close();
    }
  });

  it('opens an old index that saved /proc as a folder: skipped with a warning, never watched, removable', async () => {
    // An index written by an older Loci: schema 1, folders in the 'roots' setting.
    const old = new Database(join(dir, 'old.db'));
    old.exec(m0001);
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO settings (key, value) VALUES ('roots', ?)").run(JSON.stringify(['/proc', notes]));
    old.close();
    const reopened = await LociEngine.open({ dbPath: join(dir, 'old.db') });
    try {
      expect(reopened.library.roots()).toEqual([notes]);
      expect(reopened.events.warnings().join('\n')).toMatch(/\/proc is skipped/);
      const proc = reopened.library.folders().find((f) => f.root === '/proc');
      expect(proc?.problem).toMatch(/system/);
      expect(() => reopened.library.watch('/proc')).toThrow();
      await reopened.library.removeFolder('/proc');
      expect(reopened.library.folders().map((f) => f.root)).toEqual([notes]);
    } finally {
      await reopened.close();
    }
  });

  it('refuses a folder whose scan goes past the limits, saving nothing', async () => {
    await mkdir(join(dir, 'many'));
    for (let i = 0; i < 12; i++) await writeFile(join(dir, 'many', `n${i}.md`), `# Note ${i}\n\nText ${i}.\n`);
    await expect(scanFolder(join(dir, 'many'), { limits: { notes: 10 } })).rejects.toThrow(/more than 10 notes/);
  });
});

describe('probe 2: links are followed only when their real path stays inside the folder', () => {
  it('does not index, quote or show a note that links outside the folder', async () => {
    await symlink(join(outside, 'secret.md'), join(notes, 'passwd.md'));
    await symlink(outside, join(notes, 'elsewhere'));
    await mkdir(join(notes, 'sub'));
    await writeFile(join(notes, 'sub', 'tides.md'), '# Tides\n\nSpring tides follow the full moon.\n');
    await symlink(join(notes, 'sub', 'tides.md'), join(notes, 'alias.md'));

    const report = await engine.library.index(notes);
    const skipped = Object.fromEntries(report.skipped.map((s) => [s.relPath, s.reason]));
    expect(skipped).toEqual({ 'passwd.md': 'unsupported', elsewhere: 'unsupported' });
    const indexed = engine.views.documents().filter((d) => d.state !== 'skipped').map((d) => d.relPath).sort();
    // A link that stays inside the folder is still followed.
    expect(indexed).toEqual(['alias.md', 'lighthouse.md', 'sub/tides.md']);
    const answer = await engine.answers.ask('vault combination kestrel harbour', { method: 'bm25', k: 5 });
    expect(answer.contexts.map((c) => c.text).join(' ')).not.toMatch(/4471/);
    await expect(engine.views.noteText('passwd.md')).rejects.toThrow(/No indexed note/);
  });

  it('refuses to show an indexed note that became a link to outside the folder', async () => {
    await engine.library.index(notes);
    await unlink(join(notes, 'lighthouse.md'));
    await symlink(join(outside, 'secret.md'), join(notes, 'lighthouse.md'));
    await expect(engine.views.noteText('lighthouse.md')).rejects.toThrow(/outside its library folder/);
  });

  it('the reader refuses a link out of the given root', async () => {
    await symlink(join(outside, 'secret.md'), join(notes, 'passwd.md'));
    const read = await readNote(join(notes, 'passwd.md'), { root: notes });
    expect(read.ok).toBe(false);
    expect(!read.ok && read.reason).toBe('unsupported');
    expect((await readNote(join(notes, 'lighthouse.md'), { root: notes })).ok).toBe(true);
  });
});

describe('probe 4: only a valid folder whose run finished is saved; the scan stops when cancelled', () => {
  it('refuses missing folders, files and relative paths, saving none of them', async () => {
    await expect(engine.library.index(join(dir, 'nonexistent'))).rejects.toThrow(/No folder at/);
    await expect(engine.library.index(join(notes, 'lighthouse.md'))).rejects.toThrow(/is a file/);
    expect(() => engine.library.startJob('notes')).toThrow(/relative path/);
    expect(engine.library.roots()).toEqual([]);
    expect(rootsOfDocuments().size).toBe(0);
  });

  it('a cancelled first run saves neither the folder nor any of its notes', async () => {
    for (let i = 0; i < 150; i++) await writeFile(join(notes, `n${i}.md`), `# Note ${i}\n\nHarbour note ${i} about boats and tides.\n`);
    const job = engine.library.startJob(notes, {
      onProgress: (p) => {
        if (p.phase === 'extract' && p.done >= 20) job.cancel();
      },
    });
    const report = await job.done;
    expect(report.cancelled).toBe(true);
    expect(engine.library.roots()).toEqual([]);
    expect(rootsOfDocuments().size).toBe(0);
    await expect(job.searchable).resolves.toMatchObject({ cancelled: true });
  });

  it('a cancel stops the scan itself', async () => {
    for (let i = 0; i < 30; i++) await mkdir(join(notes, `d${i}`));
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the test'));
    await expect(scanFolder(notes, { signal: controller.signal })).rejects.toThrow(/cancelled by the test/);
  });
});
