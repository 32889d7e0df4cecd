/**
 * About how many tokens a real embedder reads of a text: a Han character is about one, other text about
 * one per four characters (within 0.75–1.12 of MiniLM's count for each kind of row, on Wikipedia, news
 * and documentation); at most where the model cuts.
 */
export function estimatedTokens(text: string, cut: number): number {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  return Math.min(cut, 1 + han + (text.length - han) / 4);
}
