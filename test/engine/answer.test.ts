import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { at } from '../support/must.js';

const samples = resolve(import.meta.dirname, '../../resources/sample-notes');
let dir: string;
let engine: LociEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-answer-'));
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
  await engine.index(samples);
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('extractive answers (no model)', () => {
  for (const method of ['hybrid', 'loci'] as const) {
    it(`cite the second hop of a multi-hop question (${method})`, async () => {
      // The founder is named in the roaster's note; where she was born is in her own note.
      const a = await engine.ask('Where was the founder of Kestrel Coffee Works born?', { method, k: 5 });
      expect(a.mode).toBe('extractive');
      expect(a.text).toMatch(/extractive/);
      const born = a.citations.find((c) => c.docPath === 'people/Mara Lindqvist.md' && /born/.test(c.text));
      expect(born, JSON.stringify(a.citations, null, 1)).toBeDefined();
      const lines = (await readFile(join(samples, born!.docPath), 'utf8')).split('\n').slice(born!.lineFrom - 1, born!.lineTo).join('\n');
      expect(lines).toContain('Tromsø');
      expect(a.citations.some((c) => c.docPath === 'roasters/Kestrel Coffee Works.md' || /founder/.test(c.text))).toBe(true);
    });
  }

  it('stores the exchange as a chat with its citations and the passages it was drawn from', async () => {
    const a = await engine.ask('What water hardness do I aim for?');
    const messages = engine.chat(a.chatId!);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(at(messages, 1).citations).toEqual(a.citations);
    expect(a.contexts.length).toBeGreaterThan(0);
    expect(at(messages, 1).contexts).toEqual(a.contexts);
    expect(at(messages, 0).contexts).toEqual([]);
    // The passages mark the question's words as they did when asked.
    expect(a.matchKeys).toEqual(expect.arrayContaining(['water', 'hard']));
    expect(at(messages, 1).matchKeys).toEqual(a.matchKeys);
  });

  it('says so when nothing matches', async () => {
    const a = await engine.ask('zzyzx qwertyuiop', { method: 'bm25' });
    expect(a.citations).toEqual([]);
    expect(a.text).toMatch(/Nothing in the indexed notes/);
  });
});
