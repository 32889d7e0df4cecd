import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';
import { at } from '../support/must.js';

// Notes moved to another subfolder, or renamed, between two runs. The real tiny GGUF runs the model pass
// (its text is nonsense: only which notes it redoes is checked).
let dir: string;
let notes: string;
let engine: LociEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-moved-'));
  notes = join(dir, 'notes');
  await mkdir(join(notes, 'inbox'), { recursive: true });
  await writeFile(join(notes, 'inbox', 'Harbour.md'), '# Harbour\n\nThe harbour master lives in Bergen and keeps the tide tables.\n');
  await writeFile(join(notes, 'inbox', 'untitled-note.md'), 'The lighthouse keeper paints the railings every April.\n');
  await writeFile(join(notes, 'Garden.md'), '# Garden\n\nThe tomatoes go out after the last frost in May.\n');
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), model: await tinyModelPath() });
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

const rowsOf = (docId: number) => ({
  fcis: engine.db.prepare('SELECT id, extractor FROM fcis WHERE document_id = ? ORDER BY id').all(docId),
  mindMap: engine.db.prepare('SELECT id FROM mm_nodes WHERE document_id = ? ORDER BY id').pluck().all(docId),
  vectors: engine.db.prepare("SELECT count(*) FROM embeddings WHERE owner_kind = 'mm' AND owner_id IN (SELECT id FROM mm_nodes WHERE document_id = ?)").pluck().get(docId),
});

describe('a note moved within its folder', () => {
  it("keeps its id, its model pass and its vectors; a past answer's passage opens it at its new path", async () => {
    const first = await engine.library.startJob(notes).done;
    expect(first.model?.refined).toBe(3);
    // With a model the answer's citations are the model's; the passage it read is kept with the answer too.
    const answer = await engine.answers.ask('Who keeps the tide tables?', { method: 'bm25', k: 3 });
    const cited = at(answer.contexts, 0);
    expect(cited.docPath).toBe('inbox/Harbour.md');
    const before = rowsOf(cited.docId!);

    await mkdir(join(notes, 'archive', '2024'), { recursive: true });
    await rename(join(notes, 'inbox', 'Harbour.md'), join(notes, 'archive', '2024', 'Harbour.md'));
    // Its title comes from its file name: renamed, it is another note.
    await rename(join(notes, 'inbox', 'untitled-note.md'), join(notes, 'inbox', 'lighthouse.md'));
    const second = await engine.library.startJob(notes).done;

    expect({ moved: second.moved, changed: second.changed, removed: second.removed, unchanged: second.unchanged }).toEqual({ moved: 1, changed: 1, removed: 1, unchanged: 1 });
    // Only the renamed note goes back to the model.
    expect([second.model?.refined, second.model?.cached]).toEqual([1, 2]);
    expect(rowsOf(cited.docId!)).toEqual(before);
    expect(before.fcis.length + before.mindMap.length).toBeGreaterThan(0);
    const note = await engine.views.noteText(cited.docPath, cited.docId);
    expect(note.docPath).toBe('archive/2024/Harbour.md');
    expect(note.lines).toContain('The harbour master lives in Bergen and keeps the tide tables.');
    expect(engine.views.documents().map((d) => d.relPath).sort()).toEqual(['Garden.md', 'archive/2024/Harbour.md', 'inbox/lighthouse.md']);
    // The conversation, reopened, names the note by where it is now.
    const reopened = (await engine.answers.chat(answer.chatId!)).find((m) => m.role === 'assistant');
    expect(reopened?.contexts.filter((c) => c.docId === cited.docId).map((c) => c.docPath)).toContain('archive/2024/Harbour.md');
    expect(reopened?.contexts.map((c) => c.docPath)).not.toContain('inbox/Harbour.md');
  }, 300_000);

  it('is not a copy: the same text at a second path, the first still there, is a note of its own', async () => {
    await writeFile(join(notes, 'Garden copy.md'), '# Garden\n\nThe tomatoes go out after the last frost in May.\n');
    const r = await engine.library.startJob(notes).done;
    expect([r.moved, r.changed]).toEqual([0, 1]);
    expect(engine.views.documents().filter((d) => d.title === 'Garden')).toHaveLength(2);
  }, 300_000);
});
