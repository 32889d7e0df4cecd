// `loci bench-grounding` on one set: a small made-up corpus (not from any data set) indexed for real, answered
// by the real tiny model, to check what the report holds. The extractive answer quotes the notes, so grounding
// must find its sentences supported: that is the scorer's own check.
import { describe, expect, it } from 'vitest';
import { evaluateGroundingSet, formatGroundingReport } from '../../main/bench/grounded-answers.js';
import { prepareIndex } from '../../main/bench/runner.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';
import { twoHopSet } from './helpers/two-hop-set.js';

const ds = twoHopSet;

describe('evaluateGroundingSet with the real tiny model', () => {
  it('scores both answers per question, with citation precision against the gold notes and grounded shares', async () => {
    const prepared = await prepareIndex(ds.corpus, await createStaticEmbedder());
    const llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), threads: 1, sequences: 1 });
    try {
      const r = await evaluateGroundingSet('made-up', ds, prepared, llm, { k: 2, maxTokens: 16 });
      expect(r.questions).toBe(2);
      // The library question's answer is quoted from its note, the one gold note: found, and cited from it.
      expect(r.extractive.containment).toBeGreaterThanOrEqual(0.5);
      expect(r.extractive.citationPrecision).toBeGreaterThan(0);
      expect(r.extractive.groundedShare).toBe(1);
      for (const side of [r.extractive, r.generated]) {
        for (const v of [side.exactMatch, side.f1, side.containment]) expect(v >= 0 && v <= 1).toBe(true);
        expect(side.secondsPerAnswer).toBeGreaterThan(0);
      }
      expect(r.diff.f1.n).toBe(2);
      const text = formatGroundingReport({ model: llm.id, embedder: prepared.embedder.id, k: 2, maxTokens: 16, threads: 1, sets: [r], skipped: [] });
      expect(text).toContain('made-up (2q)');
      expect(text).toMatch(/generated − extractive/);
    } finally {
      await llm.close();
      prepared.close();
    }
  }, 300_000);
});
