// Model embedders pad every text of a batch to the batch's longest, so a batch holding one long passage
// and many short labels (a note's chunks beside its mind-map nodes) pays the long one's cost many times.
// Batching texts of similar length cuts that waste: on SilverBullet's chunks with MiniLM int8 it halved
// the CPU time (figures in transformers-embedder.ts).

/**
 * Embeds `texts` in batches of at most `batchSize` texts of similar length (shortest first) and returns
 * the vectors in the order of `texts`.
 */
export async function embedInLengthOrder(
  texts: string[],
  batchSize: number,
  run: (batch: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
  const out: Float32Array[] = new Array(texts.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const ids = order.slice(start, start + batchSize);
    const vectors = await run(ids.map((i) => texts[i]!));
    if (vectors.length !== ids.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${ids.length} texts`);
    ids.forEach((i, j) => (out[i] = vectors[j]!));
  }
  return out;
}
