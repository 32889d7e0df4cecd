import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PGR_PARAMS,
  aggregate,
  buildTemplate,
  contribution,
  leafColumns,
  similarityMatrix,
  topRows,
  walkSeed,
} from '../../main/engine/retrieve/pgr/matrices.js';

// Node vectors are unit 2-d vectors (s, √(1−s²)) and the key point is (1, 0), so a node's similarity to the
// key point is exactly the s written below: the expected matrices can be worked out by hand.
const KP = new Float32Array([1, 0]);
const unit = (s: number) => new Float32Array([s, Math.sqrt(1 - s * s)]);

// Topic 1 › route 2 › facts 4, 5; topic 1 › route 3 › fact 6; topic 1 › fact 7 (no route); topic 8 › 9 › 10.
const PATHS = [
  [1, 2, 4],
  [1, 2, 5],
  [1, 3, 6],
  [1, 7],
  [8, 9, 10],
];

function template(sims: Record<number, number>) {
  return buildTemplate(PATHS, (id) => (id in sims ? unit(sims[id]!) : undefined), 2);
}

function rowOf(m: Float32Array | Uint8Array, r: number, cols = 3): number[] {
  return Array.from(m.subarray(r * cols, (r + 1) * cols));
}

function expectRow(m: Float32Array | Uint8Array, r: number, expected: number[]) {
  rowOf(m, r).forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 5));
}

const p1 = { ...DEFAULT_PGR_PARAMS, seedsPerKeyPoint: 1 };

describe('pgr contribution', () => {
  it('is 1·sim within θs, 0.5·sim within θf, 0 beyond, on either side of the seed', () => {
    expect(contribution(0.78, 0.8, p1)).toBeCloseTo(0.78, 6);
    expect(contribution(0.83, 0.8, p1)).toBeCloseTo(0.83, 6); // exactly θs above
    expect(contribution(0.76, 0.8, p1)).toBeCloseTo(0.38, 6); // fuzzy
    expect(contribution(0.85, 0.8, p1)).toBeCloseTo(0.425, 6); // exactly θf above
    expect(contribution(0.74, 0.8, p1)).toBe(0);
  });
});

describe('pgr matrices', () => {
  // Support and fuzzy both occur: route 2 supports fact 4 (Δ .02), topic 1 is fuzzy (Δ .04), so the walk
  // reaches the topic and the whole topic block (rows 0–3) becomes the pathway.
  const sims = { 1: 0.76, 2: 0.78, 4: 0.8, 5: 0.7, 3: 0.84, 6: 0.77, 7: 0.5, 8: 0.1, 9: 0.1, 10: 0.1 };

  it('similarity matrix holds each cell’s cosine and 0 in padding', () => {
    const t = template(sims);
    const sm = similarityMatrix(t, KP);
    expectRow(sm, 0, [0.76, 0.78, 0.8]);
    expectRow(sm, 3, [0.76, 0.5, 0]);
    expect(Array.from(leafColumns(t))).toEqual([2, 2, 2, 1, 2]);
  });

  it('seed fact 4 walks left to the topic; control and pathway matrices match the hand-worked values', () => {
    const t = template(sims);
    const sm = similarityMatrix(t, KP);
    const w = walkSeed(t, sm, leafColumns(t), 0, p1);
    expect(w.seedSim).toBeCloseTo(0.8, 6);
    expect([w.left, w.ancestorId, w.top, w.bottom, w.right]).toEqual([0, 1, 0, 3, 2]);
    // Control: topic fuzzy 0.5·0.76; route 2 support 0.78; fact 5 rejected (Δ .10); route 3 fuzzy 0.5·0.84;
    // fact 6 support (Δ exactly .03); fact 7 rejected (Δ .30).
    expectRow(w.cm, 0, [0.38, 0.78, 0.8]);
    expectRow(w.cm, 1, [0.38, 0.78, 0]);
    expectRow(w.cm, 2, [0.38, 0.42, 0.77]);
    expectRow(w.cm, 3, [0.38, 0, 0]);
    expectRow(w.cm, 4, [0, 0, 0]);
    expectRow(w.pm, 0, [1, 1, 1]);
    expectRow(w.pm, 1, [1, 1, 1]);
    expectRow(w.pm, 2, [1, 1, 1]);
    expectRow(w.pm, 3, [1, 1, 0]);
    expectRow(w.pm, 4, [0, 0, 0]);
  });

  it('aggregate sums CM ⊙ PM over seeds; rows ranked by total contribution', () => {
    const t = template(sims);
    const agg = aggregate(t, [KP], { ...DEFAULT_PGR_PARAMS, seedsPerKeyPoint: 2 });
    // Second seed: fact 6 (0.77). Its route 3 is 0.84 (Δ .07, reject), so its pathway is its own cell only.
    expect(agg.runs[0]!.seeds.map((s) => s.seedRow)).toEqual([0, 2]);
    expect(agg.runs[0]!.seeds[1]!.left).toBe(2);
    expectRow(agg.am, 0, [0.38, 0.78, 0.8]);
    expectRow(agg.am, 2, [0.38, 0.42, 1.54]);
    expect(agg.rowScores[0]).toBeCloseTo(1.96, 5);
    expect(agg.rowScores[1]).toBeCloseTo(1.16, 5);
    expect(agg.rowScores[2]).toBeCloseTo(2.34, 5);
    expect(agg.rowScores[3]).toBeCloseTo(0.38, 5);
    expect(agg.rowScores[4]).toBe(0);
    expect(topRows(agg.rowScores, 8)).toEqual([2, 0, 1, 3]);
    expect(topRows(agg.rowScores, 2)).toEqual([2, 0]);
  });

  it('sums over key points: the same key point twice doubles the aggregate matrix', () => {
    const t = template(sims);
    const once = aggregate(t, [KP], p1);
    const twice = aggregate(t, [KP, KP], p1);
    for (let i = 0; i < once.am.length; i++) expect(twice.am[i]).toBeCloseTo(2 * once.am[i]!, 5);
  });

  it('a rejected parent fixes the left boundary at the seed: the pathway is the seed cell alone', () => {
    const t = template({ ...sims, 2: 0.7 });
    const w = walkSeed(t, similarityMatrix(t, KP), leafColumns(t), 0, p1);
    expect([w.left, w.ancestorId, w.top, w.bottom, w.right]).toEqual([2, 4, 0, 0, 2]);
    expectRow(w.cm, 0, [0, 0, 0.8]);
    expectRow(w.pm, 0, [0, 0, 1]);
    expectRow(w.pm, 1, [0, 0, 0]);
  });

  it('the rightward scan stops at the first reject and does not expand its children', () => {
    // Route 3 rejected (0.6) although its fact 6 (0.8) would support the seed.
    const t = template({ ...sims, 3: 0.6, 6: 0.8 });
    const agg = aggregate(t, [KP], p1);
    expect(agg.runs[0]!.seeds[0]!.seedRow).toBe(0); // row 0 wins the tie with row 2 by order
    expectRow(agg.am, 2, [0.38, 0, 0]);
  });
});
