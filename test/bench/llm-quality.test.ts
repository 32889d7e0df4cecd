// bench-llm --quality on the real tiny model over one fixture note: every figure is present and in range,
// fast mode is the reference column, and p2 makes fewer calls than p1 on the same note. Structure only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { runQualityBench } from '../../main/bench/llm-quality.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';

const NOTES = join(import.meta.dirname, '../fixtures/llm/notes');

describe('bench-llm --quality', () => {
  it('reports validity, pass rate per try, groundedness, shape, triples and cost per strategy against fast mode', async () => {
    const source = readFileSync(join(NOTES, 'lighthouses.md'), 'utf8');
    const streamed: string[] = [];
    const r = await runQualityBench({
      modelPath: await tinyModelPath(),
      notes: [{ note: parseNote('lighthouses.md', source), source }],
      embedder: await createStaticEmbedder(),
      strategies: ['separate', 'combined'],
      onStrategy: (f) => streamed.push(f.strategy),
    });
    expect(r.strategies.map((s) => s.strategy)).toEqual(['fast', 'separate', 'combined']);
    expect(streamed).toEqual(['separate', 'combined']);
    for (const s of r.strategies) {
      for (const v of [s.validity, s.groundedShare, s.outsideChunkShare, s.triplesBothEndsInNote, s.wastedShare]) expect(v >= 0 && v <= 1).toBe(true);
      expect(s.mindMapDepth).toBeGreaterThanOrEqual(1);
    }
    const [fast, p1, p2] = r.strategies;
    expect(fast!.tokensPerNote).toBe(0);
    expect(fast!.groundedness).toBeGreaterThan(0.5); // fast mode's FCIs are the note's own sentences
    expect(p1!.tokensPerNote).toBeGreaterThan(0);
    expect(p2!.calls).toBeLessThan(p1!.calls);
    expect(p1!.passRateByTry[0]?.tryNo).toBe(1);
    expect(r.peakMainRssKb).toBeGreaterThan(0);
  }, 600_000);
});
