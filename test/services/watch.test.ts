import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import type { IndexReport } from '../../main/engine/api.js';
import { at } from '../support/must.js';

let dir: string;
let engine: LociEngine;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-watch-'));
  await writeFile(join(dir, 'first.md'), '# First\n\nThe first note mentions lighthouses on the northern coast.\n');
  engine = await LociEngine.open({ dbPath: join(dir, '.loci/index.db') });
});

afterEach(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

function nextReport(reports: IndexReport[], count: number, timeoutMs = 20_000): Promise<IndexReport> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (reports.length >= count) {
        clearInterval(poll);
        resolve(at(reports, count - 1));
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error(`no index report after ${timeoutMs} ms`));
      }
    }, 50);
  });
}

describe('watch', () => {
  it('indexes notes as they are added and removes them as they are deleted', async () => {
    await engine.library.index(dir);
    const reports: IndexReport[] = [];
    const watch = engine.library.watch(dir, { onReport: (r) => reports.push(r) });
    try {
      // chokidar needs a moment to start watching before the first change counts.
      await new Promise((r) => setTimeout(r, 500));
      await writeFile(join(dir, 'second.md'), '# Second\n\nThe second note is about tide pools and anemones.\n');
      const added = await nextReport(reports, 1);
      expect(added.changed).toBe(1);
      expect(engine.views.documents().map((d) => d.relPath)).toContain('second.md');
      const hit = await engine.answers.ask('anemones in tide pools', { method: 'bm25', k: 1 });
      expect(at(hit.contexts, 0).docPath).toBe('second.md');

      await unlink(join(dir, 'second.md'));
      const removed = await nextReport(reports, 2);
      expect(removed.removed).toBe(1);
      expect(engine.views.documents().map((d) => d.relPath)).not.toContain('second.md');
    } finally {
      await watch.close();
    }
  });

  // What a file manager or `mv` does: the unlink and the add arrive together, and one run sees both.
  it('sees a note moved into a new subfolder as moved, keeping its document', async () => {
    await engine.library.index(dir);
    const before = at(engine.views.documents(), 0);
    const reports: IndexReport[] = [];
    const watch = engine.library.watch(dir, { onReport: (r) => reports.push(r) });
    try {
      await new Promise((r) => setTimeout(r, 500));
      await mkdir(join(dir, 'archive'));
      await rename(join(dir, 'first.md'), join(dir, 'archive', 'first.md'));
      const report = await nextReport(reports, 1);
      expect([report.moved, report.removed, report.changed]).toEqual([1, 0, 0]);
      expect(engine.views.documents().map((d) => [d.id, d.relPath])).toEqual([[before.id, 'archive/first.md']]);
    } finally {
      await watch.close();
    }
  });
});
