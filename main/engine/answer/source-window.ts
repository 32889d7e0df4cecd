// What a model reads of a source longer than its share of the prompt. A context is a passage shown in
// its section's span, or a whole news article, often longer than the characters a source is given; its
// beginning is not always where the question's words are (a span grown backwards puts the passage that
// matched after the section's opening lines; a news article answers in its fifth sentence). The model
// reads the run of whole sentences that holds the most of the question's terms, the earliest on a tie,
// so a source whose opening holds them as well as any other part reads as it always did.
import { sentencesOf } from '../extract/fast/sentences.js';
import type { TermMatcher } from './term-match.js';

const ELLIPSIS = '…';

/** At most `maxChars` characters of `text`, whitespace collapsed: its beginning, marked where it was cut. */
export function clipped(text: string, maxChars: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > maxChars ? `${one.slice(0, maxChars - 1)}${ELLIPSIS}` : one;
}

/**
 * At most `maxChars` characters of `text`, whitespace collapsed: the whole of it when it fits; else the
 * run of consecutive sentences that fits and holds the most distinct question terms (`matcher`), marked
 * with "…" where text was left out. Without a matcher, or when no run holds a term, its beginning.
 */
export function sourceWindow(text: string, maxChars: number, matcher?: TermMatcher): string {
  const one = text.replace(/\s+/g, ' ').trim();
  const opening = clipped(one, maxChars);
  if (one.length <= maxChars || !matcher) return opening;
  const starts = [...sentencesOf(one)].map((s) => s.index);
  // Leave room for the marks at either end.
  const room = maxChars - 2;
  let best: { from: number; to: number; terms: number } | null = null;
  for (let i = 0; i < starts.length; i++) {
    const from = starts[i]!;
    let to = from;
    for (let j = i + 1; j <= starts.length; j++) {
      const end = j < starts.length ? starts[j]! : one.length;
      if (end - from > room) break;
      to = end;
    }
    // A sentence longer than the room is read from its start.
    if (to === from) to = Math.min(one.length, from + room);
    const terms = matcher.termsIn(one.slice(from, to)).size;
    if (!best || terms > best.terms) best = { from, to, terms };
  }
  if (!best || best.terms === 0 || best.from === 0) return opening;
  const body = one.slice(best.from, best.to).trim();
  return `${ELLIPSIS}${body}${best.to < one.length ? ELLIPSIS : ''}`;
}
