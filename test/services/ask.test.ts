import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { at } from '../support/must.js';
import { NOTHING_TO_SEARCH } from '../../main/engine/answer/extractive.js';
import { UserError } from '../../main/engine/errors.js';
import { sampleNotesEngine } from '../support/sample-notes-engine.js';
import { SAMPLE_NOTES } from '../fixtures/paths.js';

const samples = sampleNotesEngine('loci-answer-');

describe('extractive answers (no model)', () => {
  for (const method of ['hybrid', 'loci'] as const) {
    it(`cite the second hop of a multi-hop question (${method})`, async () => {
      // The founder is named in the roaster's note; where she was born is in her own note.
      const a = await samples.engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method, k: 5 });
      expect(a.mode).toBe('extractive');
      expect(a.text).toMatch(/extractive/);
      const born = a.citations.find((c) => c.docPath === 'people/Mara Lindqvist.md' && /born/.test(c.text));
      expect(born, JSON.stringify(a.citations, null, 1)).toBeDefined();
      const lines = (await readFile(join(SAMPLE_NOTES, born!.docPath), 'utf8')).split('\n').slice(born!.lineFrom - 1, born!.lineTo).join('\n');
      expect(lines).toContain('Tromsø');
      expect(a.citations.some((c) => c.docPath === 'roasters/Kestrel Coffee Works.md' || /founder/.test(c.text))).toBe(true);
    });
  }

  it('stores the exchange as a chat with its citations and the passages it was drawn from', async () => {
    const a = await samples.engine.answers.ask('What water hardness do I aim for?');
    const messages = await samples.engine.answers.chat(a.chatId!);
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
    const a = await samples.engine.answers.ask('zzyzx qwertyuiop', { method: 'bm25' });
    expect(a.citations).toEqual([]);
    expect(a.text).toMatch(/Nothing in the indexed notes/);
  });

  it('cites nothing for a question of common words only, and says why', async () => {
    for (const question of ['What is it about?', '??']) {
      const a = await samples.engine.answers.ask(question);
      expect(a.citations, question).toEqual([]);
      expect(a.text, question).toBe(NOTHING_TO_SEARCH);
    }
  });

  it('refuses an empty question with a clear error', async () => {
    await expect(samples.engine.answers.ask('  \n')).rejects.toThrow(UserError);
    await expect(samples.engine.answers.ask('')).rejects.toThrow(/The question is empty/);
  });
});
