import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanCitations, formatSources, generateAnswer, keyPoints } from '../../main/engine/answer/generate.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import type { LlmProvider } from '../../main/engine/llm/provider.js';
import type { RetrievedContext } from '../../main/engine/types.js';
import { tinyModelPath } from './helpers/tiny-model.js';

const ctx = (i: number, doc: string, factPath: string | null, text: string): RetrievedContext => ({
  text,
  docId: i,
  docPath: doc,
  docTitle: doc.replace(/\.md$/, ''),
  lineFrom: i,
  lineTo: i + 1,
  factPath,
  score: 1 / (i + 1),
  kind: factPath ? 'fact-path' : 'chunk',
});

const contexts = [
  ctx(1, 'lighthouses.md', 'Lighthouses › History › First lit in 1854', 'The Skerry Point lighthouse was first lit in 1854.'),
  ctx(2, 'automation.md', null, 'Automated lights replaced keepers between 1970 and 1997.'),
  ctx(3, 'lighthouses.md', 'Lighthouses › Keepers › Margaret Dunlop', 'Margaret Dunlop kept the light from 1902 to 1931.'),
];

describe('citations', () => {
  it('keeps citations to given sources, removes and counts the others', () => {
    const r = cleanCitations('It was lit in 1854 [1][7]. Keepers left [2, 9] and [12]. See [3].', 3);
    expect(r.citations).toEqual([1, 2, 3]);
    expect(r.dropped).toBe(3);
    expect(r.text).not.toMatch(/\[(7|9|12)\]/);
    expect(r.text).toContain('[1]');
    expect(r.text).toContain('[2]');
  });

  it('numbers sources by their rank and groups them under their note', () => {
    const s = formatSources(contexts);
    expect(s.indexOf('[1]')).toBeLessThan(s.indexOf('[3]')); // same note, grouped together
    expect(s.indexOf('[3]')).toBeLessThan(s.indexOf('[2]'));
    expect(s.match(/^Note: /gm)).toHaveLength(2);
  });
});

describe('generated answers and key points with the real tiny model', () => {
  let llm: LocalLlamaProvider;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath() });
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('streams an answer; every citation in the text and in the stream resolves to a given source', async () => {
    const streamed: string[] = [];
    const r = await generateAnswer(llm, 'When was Skerry Point first lit?', contexts, { onToken: (t) => streamed.push(t), maxTokens: 120 });
    expect(streamed.length).toBeGreaterThan(0);
    expect(r.tokens).toBeGreaterThan(0);
    for (const n of r.citations) expect(n >= 1 && n <= contexts.length).toBe(true);
    const cited = (s: string) => [...s.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(cited(r.text).every((n) => n >= 1 && n <= contexts.length)).toBe(true);
    expect(cited(streamed.join('')).every((n) => n >= 1 && n <= contexts.length)).toBe(true);
  });

  it('removes citations the model makes to sources it was not given', async () => {
    // The real model's answer, with one bogus and one valid citation appended to each streamed piece's end.
    const citing: LlmProvider = {
      id: llm.id,
      close: async () => {},
      generate: async (req) => {
        const r = await llm.generate({ ...req, onToken: undefined });
        const text = `${r.text} [2] [9]`;
        req.onToken?.(text);
        return { text, tokens: r.tokens };
      },
    };
    const streamed: string[] = [];
    const r = await generateAnswer(citing, 'Who kept the light?', contexts, { onToken: (t) => streamed.push(t), maxTokens: 40 });
    expect(r.dropped).toBeGreaterThanOrEqual(1);
    // [2] is a given source, so it reaches grounding as the model's citation (which keeps it only where source 2 supports the sentence).
    expect(r.support.flatMap((s) => s.cited)).toContain(2);
    for (const n of r.citations) expect(n >= 1 && n <= contexts.length).toBe(true);
    expect(r.text).not.toContain('[9]');
    expect(streamed.join('')).not.toContain('[9]');
  });

  it('produces key points as a list of strings (English and Chinese questions)', async () => {
    for (const q of ['Who kept the Skerry Point light?', '老铁山灯塔是哪一年建成的？']) {
      const kps = await keyPoints(llm, q);
      expect(Array.isArray(kps)).toBe(true);
      expect(kps.length).toBeGreaterThan(0);
      expect(kps.length).toBeLessThanOrEqual(5);
      for (const k of kps) expect(typeof k).toBe('string');
    }
  });
});
