// Grounding a generated answer on a real index of the sample notes: the contexts come from retrieval over
// the indexed notes, and the answers below are written as a small model writes them (test inputs, not a
// model's output), with the built-in GloVe embedder, so every decision here is deterministic.
import { beforeAll, describe, expect, it } from 'vitest';
import { groundAnswer, sentenceSpans } from '../../main/engine/answer/grounding.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import type { RetrievedContext } from '../../main/engine/types.js';
import { sampleNotesEngine } from '../support/sample-notes-engine.js';

const samples = sampleNotesEngine('loci-grounding-');
const FOUNDER = 'people/Mara Lindqvist.md';

let contexts: RetrievedContext[];
let embedder: Embedder;
beforeAll(async () => {
  contexts = (await samples.engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'loci', k: 8 })).contexts;
  embedder = await createStaticEmbedder();
});

/** The source numbers whose context lies in `docPath`. */
const sourcesIn = (docPath: string) => contexts.flatMap((c, i) => (c.docPath === docPath ? [i + 1] : []));
const sourceWith = (needle: string) => contexts.findIndex((c) => c.text.includes(needle)) + 1;

describe('groundAnswer on the sample notes', () => {
  it('retrieved the notes the cases below rest on', () => {
    expect(sourceWith('was born in Tromsø')).toBeGreaterThan(0);
    expect(sourcesIn('beans/Ethiopia Guji Natural.md').length + sourcesIn('brewing/V60 Recipe.md').length).toBeGreaterThan(0);
  });

  for (const withEmbedder of [true, false]) {
    const opts = () => (withEmbedder ? { embedder } : {});
    const how = withEmbedder ? 'words and GloVe' : 'words alone';

    it(`adds the citation a model left out, to the founder's note (${how})`, async () => {
      const g = await groundAnswer('The founder of Kestrel Coffee Works is Mara Lindqvist.', contexts, opts());
      expect(g.support).toHaveLength(1);
      const [s] = g.support;
      expect(s!.cited).toEqual([]);
      expect(s!.supported).toBe(true);
      expect(s!.citations.length).toBeGreaterThan(0);
      for (const n of s!.citations) expect(contexts[n - 1]!.docPath).toBe(FOUNDER);
      expect(g.text).toMatch(/Mara Lindqvist \[\d+\]\.$/);
      expect(g.citations).toEqual(s!.citations);
    });

    it(`replaces a citation to a source that does not support the sentence (${how})`, async () => {
      const wrong = sourcesIn('beans/Ethiopia Guji Natural.md')[0] ?? sourcesIn('brewing/V60 Recipe.md')[0]!;
      const g = await groundAnswer(`Mara Lindqvist was born in Tromsø, Norway [${wrong}].`, contexts, opts());
      const [s] = g.support;
      expect(s!.cited).toEqual([wrong]);
      expect(s!.citations).not.toContain(wrong);
      expect(s!.citations).toContain(sourceWith('was born in Tromsø'));
      expect(g.text).not.toContain(`[${wrong}]`);
    });

    it(`flags a claim nothing supports and drops its citation (${how})`, async () => {
      const born = sourceWith('was born in Tromsø');
      const g = await groundAnswer(`Mara Lindqvist roasts coffee in Gothenburg. The founder was born in Paris, France, in 1975 [${born}].`, contexts, opts());
      expect(g.support.map((s) => s.supported)).toEqual([true, false]);
      const made = g.support[1]!;
      expect(made.citations).toEqual([]);
      expect(made.score).toBeLessThan(g.support[0]!.score);
      expect(g.text).toMatch(/in 1975\.$/);
    });
  }

  it('keeps offsets true to the grounded text, moves a mark that opens a sentence back to the one before, and needs no source for a lead-in', async () => {
    const born = sourceWith('was born in Tromsø');
    const text = `Here is what your notes say:\n- Mara Lindqvist was born in Tromsø, Norway. [${born}] She studied chemistry at the University of Bergen.`;
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual([
      'Here is what your notes say:',
      `- Mara Lindqvist was born in Tromsø, Norway. [${born}]`,
      'She studied chemistry at the University of Bergen.',
    ]);
    const g = await groundAnswer(text, contexts, { embedder });
    for (const s of g.support) expect(g.text.slice(s.start, s.end)).toBe(s.sentence);
    expect(g.support[0]!.claim).toBe(false);
    expect(g.support[0]!.citations).toEqual([]);
    expect(g.support[1]!.citations).toEqual([born]);
    expect(g.support[1]!.sentence).toBe(`- Mara Lindqvist was born in Tromsø, Norway [${born}].`);
    expect(g.support[2]!.supported).toBe(true);
    expect(g.text.startsWith('Here is what your notes say:\n- ')).toBe(true);
  });

  it('grounds nothing and changes nothing for an empty answer or no sources', async () => {
    expect(await groundAnswer('', contexts, { embedder })).toEqual({ text: '', citations: [], support: [] });
    const g = await groundAnswer('Mara Lindqvist was born in Tromsø [1].', [], { embedder });
    expect(g.support[0]!.supported).toBe(false);
    expect(g.text).toBe('Mara Lindqvist was born in Tromsø.');
  });

  it('grounds Chinese by its words as jieba cuts them, and sets the mark with no space', async () => {
    // Two sources written for this test.
    const source = (text: string, n: number): RetrievedContext => ({ text, docId: n, docPath: `n${n}.md`, docTitle: '', lineFrom: 1, lineTo: 1, factPath: null, score: 1, kind: 'chunk' });
    const zh = [source('老铁山灯塔建于1893年，位于大连旅顺口区。', 1), source('上海的地铁系统于1993年开通。', 2)];
    const g = await groundAnswer('老铁山灯塔建于1893年[2]。北京故宫建于明朝。', zh);
    expect(g.text).toBe('老铁山灯塔建于1893年[1]。北京故宫建于明朝。');
    expect(g.support.map((s) => s.supported)).toEqual([true, false]);
  });
});

