import type { Embedder } from './embedder.js';

/**
 * Vectors for `texts`, each distinct text embedded once: a note of one passage has the same text for
 * itself and its passage, and news reports repeat their boilerplate lines. With a real embedder every
 * text costs model time (10k news articles: about 30M tokens), so a repeat is copied, not recomputed.
 */
export async function embedOnce(embedder: Embedder, texts: string[], known: ReadonlyMap<string, Float32Array> = new Map()): Promise<Float32Array[]> {
  const fresh = [...new Set(texts.filter((t) => !known.has(t)))];
  const vectors = fresh.length ? await embedder.embed(fresh) : [];
  if (vectors.length !== fresh.length) throw new Error(`embedder ${embedder.id} returned ${vectors.length} vectors for ${fresh.length} texts`);
  const made = new Map(fresh.map((t, i) => [t, vectors[i]!]));
  return texts.map((t) => made.get(t) ?? known.get(t)!);
}
