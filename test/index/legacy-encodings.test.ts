import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { LociEngine } from '../../main/engine/engine.js';
import type { IndexReport } from '../../main/engine/api.js';
import { at } from '../support/must.js';

// Notes written by us and saved as older editors save them (GBK on a Chinese Windows, Windows-1252 on a
// Western one): they are searched, cited and shown with the lines the citations name.
const GBK_NOTE = '# 港口\n\n港口负责人住在卑尔根。\n下周一上午九点开会，讨论灯塔的维修预算。\n';
const CP1252_NOTE = '# Café\n\nThe café opens at nine.\nIts crème brûlée is made on Thursdays — “fresh”.\n';

let dir: string;
let engine: LociEngine;
let report: IndexReport;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-encodings-'));
  await writeFile(join(dir, 'harbour.txt'), iconv.encode(GBK_NOTE, 'gbk'));
  await writeFile(join(dir, 'cafe.md'), iconv.encode(CP1252_NOTE, 'windows-1252'));
  engine = await LociEngine.open({ dbPath: join(dir, '.index.db') });
  report = await engine.library.index(dir);
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('notes saved in legacy encodings', () => {
  it('are indexed, and the report says which encoding each was read in', () => {
    expect(report.skipped).toEqual([]);
    expect(Object.fromEntries(report.readAs.map((a) => [a.relPath, a.encoding]))).toEqual({ 'harbour.txt': 'GB18030', 'cafe.md': 'windows-1252' });
  });

  it.each([
    ['灯塔的维修预算什么时候讨论？', 'harbour.txt', '下周一上午九点开会，讨论灯塔的维修预算。'],
    ['When is the crème brûlée made?', 'cafe.md', 'Its crème brûlée is made on Thursdays — “fresh”.'],
  ])('answer %s from %s, and the note shows the cited line as written', async (question, path, line) => {
    const answer = await engine.answers.ask(question, { method: 'bm25', k: 1 });
    const c = at(answer.citations, 0);
    expect(c.docPath).toBe(path);
    const note = await engine.views.noteText(c.docPath, c.docId);
    expect(note.lines.slice(c.lineFrom - 1, c.lineTo)).toContain(line);
  });
});
