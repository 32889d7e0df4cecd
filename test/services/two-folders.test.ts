import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { at } from '../support/must.js';

// Two library folders that both hold `index.md`: each note must stay reachable as itself.
let dir: string;
let engine: LociEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-two-'));
  await mkdir(join(dir, 'work'));
  await mkdir(join(dir, 'home'));
  await writeFile(join(dir, 'work', 'index.md'), '# Work\n\nThe quarterly review is on the third Thursday of March.\n');
  await writeFile(join(dir, 'home', 'index.md'), '# Home\n\nThe boiler service is due every October.\n');
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
  await engine.library.index(join(dir, 'work'));
  await engine.library.index(join(dir, 'home'));
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('notes with the same path in two folders', () => {
  it('are told apart by the document id that citations carry', async () => {
    const a = await engine.answers.ask('When is the boiler service due?', { method: 'bm25', k: 1 });
    const c = at(a.citations, 0);
    expect(c.docPath).toBe('index.md');
    expect(c.docId).toBeDefined();
    const note = await engine.views.noteText(c.docPath, c.docId);
    expect(note.title).toBe('Home');
    expect(note.lines.slice(c.lineFrom - 1, c.lineTo).join('\n')).toContain('boiler');
    expect(engine.views.mindMap(c.docPath, c.docId)?.text).toBe('Home');

    const ids = engine.views.documents().map((d) => d.id);
    const other = ids.find((id) => id !== c.docId)!;
    expect((await engine.views.noteText('index.md', other)).title).toBe('Work');
    expect(engine.views.mindMap('index.md', other)?.text).toBe('Work');
  });
});
