import type { CharSpan } from './token-spans.js';

const WORD = /[\p{L}\p{N}]+/gu;
/** Words that anchor each end of a fact in its passage. */
const ANCHOR_WORDS = 3;
/**
 * What cleaning takes out of a passage's words: a link's address (`](…)`, `<https://…>`, a bare URL, a
 * wikilink's target before its `|alias`) and an HTML tag with its attributes. Counted as words, an
 * address put a fact's last words out of reach.
 */
const MARKUP = /\[\[[^\]|\n]*\||\]\([^)\s]*\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\bhttps?:\/\/[^\s)\]>]+|<\/?[a-z][^<>]*>/giu;
/**
 * A heading's short list items become one fact, "Setup: Node 20; npm 10", and the heading is not in the
 * passage: a fact's words up to a colon, this many at most, may be passed over to place the rest.
 */
const MAX_SKIPPED_WORDS = 8;

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
  // Masked on both sides: a fact may keep an address its passage holds (a bare URL, `<id>` in code).
  const factWords = [...trimmed.replace(MARKUP, ' ').matchAll(WORD)].map((m) => m[0].toLowerCase());
  if (factWords.length < 2) return null;
  const masked = [...passage.matchAll(MARKUP)].map((m): CharSpan => [m.index, m.index + m[0].length]);
  const words = [...passage.matchAll(WORD)]
    .filter((m) => !masked.some(([a, b]) => m.index >= a && m.index < b))
    .map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  const at = (seq: string[], i: number) => seq.every((w, j) => words[i + j]?.word === w);
  const skips = [0, ...[...trimmed.matchAll(/:\s/g)].map((m) => [...trimmed.slice(0, m.index).replace(MARKUP, ' ').matchAll(WORD)].length)];
  for (const skip of skips.filter((n, i) => i === 0 || (n > 0 && n <= MAX_SKIPPED_WORDS && n <= factWords.length - 2))) {
    const own = factWords.slice(skip);
    const k = Math.min(ANCHOR_WORDS, Math.floor(own.length / 2));
    const head = own.slice(0, k);
    for (let i = 0; i + k <= words.length; i++) {
      if (!at(head, i)) continue;
      // The nearest tail after the head, within what markup can add to the fact's own words; a link's
      // text can split the last words, so a shorter tail is tried before giving up.
      for (let t = k; t >= 1; t--) {
        const tail = own.slice(-t);
        for (let j = i + own.length - t; j + t <= words.length && j - i <= 2 * own.length; j++) {
          if (!at(tail, j)) continue;
          const span: CharSpan = [words[i]!.start, words[j + t - 1]!.end];
          return shown(passage, masked, span) <= 3 * shown(trimmed, [], [0, trimmed.length]) ? span : null;
        }
      }
    }
  }
  return null;
}

/** Characters of text[from, to) a reader sees: neither masked markup nor whitespace. */
function shown(text: string, masked: readonly CharSpan[], [from, to]: CharSpan): number {
  let n = 0;
  for (let i = from; i < to; i++) if (!/\s/.test(text[i]!) && !masked.some(([a, b]) => i >= a && i < b)) n++;
  return n;
}
