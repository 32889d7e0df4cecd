import type { Embedder } from './embedder.js';
import { locateFact } from './fact-spans.js';

/** A fact to be given a vector from its passage's pass: its id and text. */
export interface PassageFact {
  id: number;
  text: string;
}

/**
 * Embeds each passage text once and gives each of its facts the mean of its tokens' states in that same
 * pass (late chunking): fast-mode facts are the passage's own sentences, which embedded alone cost a
 * model 0.6× the passages' tokens again (SilverBullet). A fact that cannot be placed in its passage, or
 * lies past where the model cuts it, is left out of `facts`: the caller embeds it alone.
 */
export async function embedPassagesWithFacts(
  embedder: Embedder & Required<Pick<Embedder, 'embedWithSpans'>>,
  texts: string[],
  factsOf: (text: string) => readonly PassageFact[],
): Promise<{ vectors: Map<string, Float32Array>; facts: Map<number, Float32Array> }> {
  const items = texts.map((text) => {
    const placed = factsOf(text).flatMap((f) => {
      const span = locateFact(text, f.text);
      return span ? [{ id: f.id, span }] : [];
    });
    return { text, placed };
  });
  const results = await embedder.embedWithSpans(items.map(({ text, placed }) => ({ text, spans: placed.map((p) => p.span) })));
  if (results.length !== items.length) throw new Error(`embedder ${embedder.id} returned ${results.length} vectors for ${items.length} texts`);
  const vectors = new Map<string, Float32Array>();
  const facts = new Map<number, Float32Array>();
  items.forEach(({ text, placed }, i) => {
    vectors.set(text, results[i]!.vector);
    placed.forEach((p, j) => {
      const v = results[i]!.spans[j];
      if (v) facts.set(p.id, v);
    });
  });
  return { vectors, facts };
}
