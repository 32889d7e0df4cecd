// Model embedders pad every text of a batch to the batch's longest, so a batch holding one long passage
// and many short labels (a note's chunks beside its mind-map nodes) pays the long one's cost many times.
// Batching texts of similar length cuts that waste: on SilverBullet's chunks with MiniLM int8 it halved
// the CPU time (figures in transformers-embedder.ts).

/**
 * Embeds `texts` in batches of at most `batchSize` texts of similar length (shortest first) and returns
 * the vectors in the order of `texts`.
 */
export function embedInLengthOrder(
  texts: string[],
  batchSize: number,
  run: (batch: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  return inLengthOrder(texts, (t) => t.length, batchSize, run);
}

/** The same over any items, by the length `lengthOf` gives each; results in the order of `items`. */
export async function inLengthOrder<T, R>(items: readonly T[], lengthOf: (item: T) => number, batchSize: number, run: (batch: T[]) => Promise<R[]>): Promise<R[]> {
  const lengths = items.map(lengthOf);
  const order = items.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const out: R[] = new Array(items.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const ids = order.slice(start, start + batchSize);
    const results = await run(ids.map((i) => items[i]!));
    if (results.length !== ids.length) throw new Error(`the embedder returned ${results.length} vectors for ${ids.length} texts`);
    ids.forEach((i, j) => (out[i] = results[j]!));
  }
  return out;
}
