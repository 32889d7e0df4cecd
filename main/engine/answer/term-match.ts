// Which of the question's terms a fact holds. A fact says "founder" where the question asks "founded",
// "records" where it asks "record": a term matches a word of the fact that begins with the term's
// Porter stem, at a word start (so "man" no longer matches "Beatlemania" or "female"). Chinese has no
// word boundaries and no inflection: a Han term matches as a substring, as before.
//
// The Porter stemmer of wink's English model (a dependency already; typed in text/porter-stemmer.d.ts).
import stem from 'wink-eng-lite-web-model/dist/porter-stemmer.js';
import { hasHan } from '../text/lang.js';

/** A stem shorter than this matches too much by prefix ("be", "us"): the whole term is matched instead. */
const MIN_STEM = 4;

export interface TermMatcher {
  /** The terms found in the text (a subset of the question's terms). */
  termsIn(text: string): Set<string>;
}

/** What a non-Han term is matched by: its Porter stem at a word start, or the whole term when the stem is short or not a prefix. */
function prefixOf(term: string): string {
  const s = stem(term);
  return s.length >= MIN_STEM && term.startsWith(s) ? s : term;
}

/**
 * The keys a text is matched by, for showing the matches (the window marks them in an answer's passages):
 * Han terms, found as substrings, and the other terms' prefixes, found at a word start.
 */
export function matchKeys(terms: string[]): string[] {
  return [...new Set(terms.map((t) => (hasHan(t) ? t : prefixOf(t))))];
}

/** Matches the terms, each also by its variants (a word that stands for it: "Ethiopia" for "ethiopian"). */
export function termMatcher(terms: string[], variants: ReadonlyMap<string, string[]> = new Map()): TermMatcher {
  const han = terms.filter(hasHan);
  const byPrefix = new Map<string, string[]>();
  for (const t of terms) {
    if (hasHan(t)) continue;
    for (const form of [t, ...(variants.get(t) ?? [])]) {
      const prefix = prefixOf(form);
      const list = byPrefix.get(prefix) ?? [];
      if (!list.includes(t)) byPrefix.set(prefix, [...list, t]);
    }
  }
  return {
    termsIn(text) {
      const lower = text.toLowerCase();
      const found = new Set<string>();
      for (const t of han) if (lower.includes(t)) found.add(t);
      // A native substring search first (most terms are absent from most facts), then the word start.
      for (const [prefix, ts] of byPrefix) {
        for (let at = lower.indexOf(prefix); at >= 0; at = lower.indexOf(prefix, at + 1)) {
          if (at > 0 && isWordChar(lower, at - 1)) continue;
          for (const t of ts) found.add(t);
          break;
        }
      }
      return found;
    },
  };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether the character at `i` is a letter or a digit (the whole code point, outside the BMP too). */
export function isWordChar(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
  // A low surrogate is the second half of a letter outside the BMP; ask about the whole code point.
  const start = c >= 0xdc00 && c <= 0xdfff && i > 0 ? i - 1 : i;
  return WORD_CHAR.test(String.fromCodePoint(s.codePointAt(start)!));
}
