import { describe, expect, it } from 'vitest';
import { figures, fit, kindOf, type Observation } from '../../main/bench/answerable.js';

// The fit and the figures of `loci bench-answerable`, on signals drawn so that coverage separates the
// answerable questions from the others on one set and only roughly on another.

const obs = (set: string, answerable: boolean, best: number, together = best): Observation => ({ set, id: `${set}-${best}`, answerable, signals: { best, together, absent: answerable ? 0 : 0.3, dense: 0.5, agree: 0.5 } });

describe('the answerable bench', () => {
  const clean = [0.7, 0.8, 0.9, 1].flatMap((b) => [obs('a', true, b), obs('a', false, b - 0.6)]);
  const noisy = [0.5, 0.6, 0.7, 0.9].flatMap((b) => [obs('crud-1doc', true, b), obs('crud-1doc', false, b - 0.25)]);

  it('fits weights that separate what coverage separates', () => {
    const w = fit(clean);
    const [f] = figures(clean, w);
    expect(f).toMatchObject({ set: 'a', answerable: 4, unanswerable: 4, precision: 1, recall: 1, unPrecision: 1, unRecall: 1, accuracy: 1 });
    expect(w.weights.best).toBeGreaterThan(0);
    expect(w.weights.absent).toBeLessThan(0);
  });

  it('reports each set on its own', () => {
    const w = fit([...clean, ...noisy]);
    const out = figures([...clean, ...noisy], w);
    expect(out.map((f) => f.set)).toEqual(['a', 'crud-1doc']);
    for (const f of out) expect(f.accuracy).toBeGreaterThan(0.5);
  });

  it('groups the sets by kind for the held-out fits', () => {
    expect(['hotpotqa-train-100', 'crud-2doc', 'foam-qa'].map(kindOf)).toEqual(['wiki', 'news', 'notes']);
  });
});
