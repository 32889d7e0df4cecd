// Library folders as a person manages them: remove one with everything it contributed, scope one with
// include/exclude globs, see each note's state, re-index a note, complete a typed folder path.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import type { IndexReport } from '../../main/engine/api.js';

let dir: string;
let a: string;
let b: string;
let engine: LociEngine;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-folders-'));
  a = join(dir, 'a');
  b = join(dir, 'b');
  await mkdir(join(a, 'drafts'), { recursive: true });
  await mkdir(b);
  await writeFile(join(a, 'glaciers.md'), '# Glaciers\n\n## Moraines\n\nThe Aletsch Glacier carries a medial moraine of granite boulders.\n');
  await writeFile(join(a, 'fjords.txt'), 'Fjords\n\nThe Sognefjord was carved by the Aletsch-like glaciers of Norway.\n');
  await writeFile(join(a, 'drafts', 'idea.md'), '# Idea\n\nA half-written idea about permafrost and methane.\n');
  await writeFile(join(a, 'empty.md'), '   \n');
  await writeFile(join(b, 'orchards.md'), '# Orchards\n\n## Grafting\n\nApple trees are grafted onto dwarfing rootstock in early spring.\n');
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
});

afterEach(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

const count = (sql: string, ...args: unknown[]) => engine.db.prepare(sql).pluck().get(...args) as number;

describe('library.remove', () => {
  it('removes a folder and everything it contributed, leaving the other folder whole', async () => {
    await engine.library.index(a);
    await engine.library.index(b);
    const bDocs = engine.views.documents().filter((d) => d.root === b).length;
    const aIds = engine.views.documents().filter((d) => d.root === a).map((d) => d.id);
    expect(aIds.length).toBeGreaterThan(0);

    const { removed } = await engine.library.removeFolder(a);
    expect(removed).toBe(aIds.length);
    expect(engine.library.roots()).toEqual([b]);
    expect(engine.library.folders().map((f) => f.root)).toEqual([b]);
    expect(engine.views.documents().every((d) => d.root === b)).toBe(true);
    expect(engine.views.documents().length).toBe(bDocs);
    const ids = aIds.join(',');
    // Passages, their full-text rows and vectors, graph edges and super-node memberships of a's notes are gone.
    expect(count(`SELECT count(*) FROM chunks WHERE document_id IN (${ids})`)).toBe(0);
    expect(count('SELECT count(*) FROM chunks_fts')).toBe(count('SELECT count(*) FROM chunks'));
    expect(count(`SELECT count(*) FROM embeddings WHERE owner_kind = 'doc' AND owner_id IN (${ids})`)).toBe(0);
    expect(count(`SELECT count(*) FROM doc_edges WHERE src IN (${ids}) OR dst IN (${ids})`)).toBe(0);
    expect(count('SELECT count(*) FROM super_nodes s WHERE NOT EXISTS (SELECT 1 FROM super_members m WHERE m.super_id = s.id)')).toBe(0);
    // Entities only a's notes mentioned (the Aletsch Glacier) went with them.
    expect(count('SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id)')).toBe(0);
    const answer = await engine.answers.ask('Aletsch Glacier moraine', { method: 'bm25', k: 5 });
    expect(answer.contexts.every((c) => c.docPath === 'orchards.md')).toBe(true);
    await expect(engine.library.removeFolder(a)).rejects.toThrow(/not a library folder/);
  });

  it('stops the folder watcher', async () => {
    await engine.library.index(a);
    const watch = engine.library.watch(a);
    await watch.ready;
    expect(engine.library.folders()[0]?.watching).toBe(true);
    await engine.library.removeFolder(a);
    expect(engine.library.folders()).toEqual([]);
  });
});

describe('library.setScope', () => {
  it('applies .gitignore-style globs, removes notes now left out, and lists the scope', async () => {
    await engine.library.index(a);
    const paths = () => engine.views.documents().filter((d) => d.state !== 'skipped').map((d) => d.relPath).sort();
    expect(paths()).toEqual(['drafts/idea.md', 'fjords.txt', 'glaciers.md']);

    const excluded = await (await engine.library.setScope(a, { include: [], exclude: ['drafts/'] })).done;
    expect(excluded.removed).toBe(1);
    expect(paths()).toEqual(['fjords.txt', 'glaciers.md']);

    await (await engine.library.setScope(a, { include: ['*.md'], exclude: ['drafts/', ''] })).done;
    expect(paths()).toEqual(['glaciers.md']);
    expect(engine.library.folders()[0]).toMatchObject({ root: a, include: ['*.md'], exclude: ['drafts/'], noteCount: 1, job: 'idle', problem: null });

    await (await engine.library.setScope(a, { include: [], exclude: [] })).done;
    expect(paths()).toEqual(['drafts/idea.md', 'fjords.txt', 'glaciers.md']);
    await expect(engine.library.setScope(b, { include: [], exclude: [] })).rejects.toThrow(/not a library folder/);
  });
});

describe('the watcher follows the scope', () => {
  it('ignores changes the scope leaves out and indexes the rest', async () => {
    await engine.library.index(a);
    await (await engine.library.setScope(a, { include: [], exclude: ['drafts/'] })).done;
    const reports: IndexReport[] = [];
    const watch = engine.library.watch(a, { onReport: (r) => reports.push(r) });
    try {
      await watch.ready;
      await writeFile(join(a, 'drafts', 'later.md'), '# Later\n\nA draft about sea ice.\n');
      await new Promise((r) => setTimeout(r, 1500));
      expect(reports).toEqual([]);
      await writeFile(join(a, 'moraines.md'), '# Moraines\n\nLateral moraines line the valley walls.\n');
      const started = Date.now();
      while (reports.length === 0 && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
      expect(reports[0]?.changed).toBe(1);
      expect(engine.views.documents().map((d) => d.relPath)).not.toContain('drafts/later.md');
    } finally {
      await watch.close();
    }
  });
});

describe('per-note state and re-index', () => {
  it('shows fast and skipped notes with reasons, and re-extracts one note on request', async () => {
    await engine.library.index(a);
    const byPath = Object.fromEntries(engine.views.documents().map((d) => [d.relPath, d]));
    expect(byPath['glaciers.md']).toMatchObject({ state: 'fast', reason: null, root: a });
    expect(byPath['empty.md']).toMatchObject({ state: 'skipped' });
    expect(byPath['empty.md']?.reason).toMatch(/^empty/);

    const glaciers = byPath['glaciers.md']!;
    const one = await engine.library.reindex(a, glaciers.id).done;
    expect(one.changed).toBe(1);
    const all = await engine.library.reindex(a).done;
    expect(all.changed).toBe(3);
    expect(() => engine.library.reindex(b)).toThrow(/not a library folder/);
  });
});

describe('library.completePath', () => {
  it('lists existing directories only, without hidden ones unless asked, and refuses relative paths', async () => {
    await mkdir(join(dir, 'alps'));
    await mkdir(join(dir, '.alcove'));
    await writeFile(join(dir, 'almanac.md'), 'x');
    const c = await engine.library.completePath(join(dir, 'a'));
    expect(c.matches).toEqual([a, join(dir, 'alps')]);
    expect((await engine.library.completePath(dir + '/')).matches).toEqual([a, join(dir, 'alps'), b]);
    expect((await engine.library.completePath(dir + '/', { hidden: true })).matches).toContain(join(dir, '.alcove'));
    expect((await engine.library.completePath(join(dir, 'nothing-here', 'x'))).matches).toEqual([]);
    await expect(engine.library.completePath('notes/a')).rejects.toThrow(/not an absolute path/);
  });
});
