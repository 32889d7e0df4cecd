// bench-llm --tuning on the real tiny model over one fixture note: one cell per threads × sequences,
// figures present and consistent, the best cell named. Structure only (speed is benchmarked, not tested).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { defaultModelTuning } from '../../main/engine/llm/local/tuning.js';
import { runTuningBench } from '../../main/bench/llm-tuning.js';
import { DEFAULT_SETTINGS } from '../../main/engine/settings.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';

const NOTES = join(import.meta.dirname, '../fixtures/llm/notes');

describe('bench-llm --tuning', () => {
  it('measures notes per minute for every thread × sequence count and names the best', async () => {
    const r = await runTuningBench({
      modelPath: await tinyModelPath(),
      notes: [parseNote('automation.md', readFileSync(join(NOTES, 'automation.md'), 'utf8'))],
      embedder: await createStaticEmbedder(),
      threads: [1],
      sequences: [1, 2],
      rounds: 1,
    });
    expect(r.model).toBe('stories260K');
    expect(r.cells.map((c) => [c.threads, c.sequences])).toEqual([
      [1, 1],
      [1, 2],
    ]);
    for (const c of r.cells) {
      expect(c.tokens).toBeGreaterThan(0);
      expect(c.notesPerMinute).toBeCloseTo((60 * r.notes) / c.seconds, 6);
      expect(c.tokensPerSecond).toBeCloseTo(c.tokens / c.seconds, 6);
    }
    expect(r.cells).toContain(r.best);
    expect(r.best.notesPerMinute).toBe(Math.max(...r.cells.map((c) => c.notesPerMinute)));
    expect(r.cores).toBeGreaterThan(0);
  }, 300_000);
});

describe('default threads and sequences (chosen by bench-llm --tuning)', () => {
  it('takes half the cores (at least one) and one sequence, and the settings default to it', () => {
    expect(defaultModelTuning(1)).toEqual({ threads: 1, sequences: 1 });
    expect(defaultModelTuning(2)).toEqual({ threads: 1, sequences: 1 });
    expect(defaultModelTuning(8)).toEqual({ threads: 4, sequences: 1 });
    expect({ threads: DEFAULT_SETTINGS.threads, sequences: DEFAULT_SETTINGS.sequences }).toEqual(defaultModelTuning());
  });
});
