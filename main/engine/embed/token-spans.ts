/** A character range of a text: [start, end). */
export type CharSpan = readonly [number, number];

/**
 * The token range [from, to) of each character span in the model's input for `text`, or null where the
 * span has no whole tokens inside what the model reads (cut at `keptTokens` of the text's own tokens).
 * Offsets count from the input's first token, so `leading` special tokens ([CLS]) shift them.
 *
 * The tokenizer gives no offsets here, so the text is tokenized piece by piece between the spans'
 * boundaries. That equals tokenizing the whole text only where each boundary falls between two of its
 * tokens (a sentence's start or end, for WordPiece); when the pieces' tokens do not add up to the
 * text's, a boundary cut a token and every span is null: the caller embeds those texts alone.
 */
export function spanTokenRanges(
  text: string,
  spans: readonly CharSpan[],
  tokenCount: (piece: string) => number,
  textTokens: number,
  leading: number,
  keptTokens: number,
): ([number, number] | null)[] {
  if (spans.length === 0) return [];
  const bounds = [...new Set([0, text.length, ...spans.flat()])].filter((b) => b >= 0 && b <= text.length).sort((a, b) => a - b);
  const tokensBefore = new Map<number, number>([[0, 0]]);
  let sum = 0;
  for (let i = 1; i < bounds.length; i++) {
    sum += tokenCount(text.slice(bounds[i - 1], bounds[i]));
    tokensBefore.set(bounds[i]!, sum);
  }
  if (sum !== textTokens) return spans.map(() => null);
  return spans.map(([start, end]) => {
    const from = tokensBefore.get(start);
    const to = tokensBefore.get(end);
    if (from === undefined || to === undefined || to <= from || to > keptTokens) return null;
    return [leading + from, leading + to];
  });
}
