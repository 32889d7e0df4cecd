// The answer evaluation behind `loci bench --answer`: scoring rules on fixed strings, and one run with the
// real tiny model over a small made-up corpus (not from any data set) to check the table's structure.
import { beforeAll, describe, expect, it } from 'vitest';
import { runAnswerBench, scoreReply, tokenF1 } from '../../main/bench/answers.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';
import { twoHopSet } from './helpers/two-hop-set.js';

describe('answer scoring', () => {
  it('exact match, token F1 and containment, best alias, citations ignored', () => {
    expect(scoreReply('The Eiffel Tower [1]', ['Eiffel Tower'])).toEqual({ em: 1, f1: 1, contains: 1 });
    const partial = scoreReply('It was built in Paris by Eiffel', ['Gustave Eiffel', 'Eiffel']);
    expect(partial.em).toBe(0);
    expect(partial.contains).toBe(1);
    expect(partial.f1).toBeCloseTo(tokenF1('It was built in Paris by Eiffel', 'Eiffel'));
    expect(scoreReply('no idea', ['1889'])).toEqual({ em: 0, f1: 0, contains: 0 });
    expect(tokenF1('red blue', 'blue green')).toBeCloseTo(0.5);
  });
});

describe('runAnswerBench with the real tiny model', () => {
  let model: string;
  beforeAll(async () => {
    model = await tinyModelPath();
  });

  it('answers each question from loci, bm25 and no context and reports every condition', async () => {
    const ds = twoHopSet;
    const r = await runAnswerBench(ds, { model, k: 2, maxTokens: 16 });
    expect(r.model).toBe('stories260K');
    expect(r.questions).toBe(2);
    expect(r.results.map((x) => x.condition)).toEqual(['loci', 'bm25', 'none']);
    for (const x of r.results) {
      for (const v of [x.exactMatch, x.f1, x.containment]) expect(v >= 0 && v <= 1).toBe(true);
      expect(x.tokensPerAnswer).toBeGreaterThan(0);
    }
  }, 300_000);
});
