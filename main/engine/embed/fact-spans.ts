import type { CharSpan } from './token-spans.js';

const WORD = /[\p{L}\p{N}]+/gu;
/** Words that anchor each end of a fact in its passage. */
const ANCHOR_WORDS = 3;

/**
 * Where a fact stands in the passage it was taken from, as a character span, or null when it cannot be
 * placed. Fast-mode facts are the note's sentences with their Markdown cleaned away ("[Records](https://…)"
 * reads "Records"), so a fact that is not verbatim in the passage is placed by its first and last words:
 * the span runs from the first to the last, markup between them included. A model's facts are its own
 * words and are seldom placed; those are embedded alone.
 */
export function locateFact(passage: string, fact: string): CharSpan | null {
  const trimmed = fact.trim();
  if (!trimmed) return null;
  const exact = passage.indexOf(trimmed);
  if (exact >= 0) return [exact, exact + trimmed.length];
  const factWords = [...trimmed.matchAll(WORD)].map((m) => m[0].toLowerCase());
  if (factWords.length < 2) return null;
  const words = [...passage.matchAll(WORD)].map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  const k = Math.min(ANCHOR_WORDS, Math.floor(factWords.length / 2));
  const at = (seq: string[], i: number) => seq.every((w, j) => words[i + j]?.word === w);
  const head = factWords.slice(0, k);
  for (let i = 0; i + k <= words.length; i++) {
    if (!at(head, i)) continue;
    // The nearest tail after the head, within what markup can add to the fact's own words; a link's
    // address can split the last words, so a shorter tail is tried before giving up.
    for (let t = k; t >= 1; t--) {
      const tail = factWords.slice(-t);
      for (let j = i + factWords.length - t; j + t <= words.length && j - i <= 2 * factWords.length; j++) {
        if (!at(tail, j)) continue;
        const span: CharSpan = [words[i]!.start, words[j + t - 1]!.end];
        return span[1] - span[0] <= 3 * trimmed.length ? span : null;
      }
    }
  }
  return null;
}
