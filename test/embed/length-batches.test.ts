import { describe, expect, it } from 'vitest';
import { embedInLengthOrder } from '../../main/engine/embed/length-batches.js';

/** A "model" whose vector records the text it was given and the longest text of its batch. */
const recordingRun = (batches: string[][]) => async (batch: string[]) => {
  batches.push(batch);
  const longest = Math.max(...batch.map((t) => t.length));
  return batch.map((t) => Float32Array.of(t.length, longest));
};

describe('embedInLengthOrder', () => {
  it('batches texts of similar length and returns vectors in the callers order', async () => {
    const texts = ['x'.repeat(500), 'a', 'bb', 'y'.repeat(400), 'ccc', 'z'.repeat(450), 'dd'];
    const batches: string[][] = [];
    const vectors = await embedInLengthOrder(texts, 3, recordingRun(batches));
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
    // The three shortest texts share a batch whose longest is 2 characters, not 500; the longest is alone.
    expect([vectors[1]![1], vectors[2]![1], vectors[6]![1]]).toEqual([2, 2, 2]);
    expect(batches[2]).toEqual([texts[0]]);
  });

  it('refuses a batch answered with the wrong number of vectors', async () => {
    await expect(embedInLengthOrder(['a', 'b'], 2, async () => [Float32Array.of(1)])).rejects.toThrow(/1 vectors for 2 texts/);
  });

  it('embeds nothing for no texts', async () => {
    expect(await embedInLengthOrder([], 4, async () => { throw new Error('not called'); })).toEqual([]);
  });
});
