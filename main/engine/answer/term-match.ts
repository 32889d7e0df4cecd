// Which of the question's terms a fact holds. A fact says "founder" where the question asks "founded",
// "records" where it asks "record": a term matches a word of the fact that begins with the term's
// Porter stem, at a word start (so "man" no longer matches "Beatlemania" or "female"). Chinese has no
// word boundaries and no inflection: a Han term matches as a substring, as before.
import { createRequire } from 'node:module';

// wink's English model (already a dependency, for the fast extractor) ships the Porter 2 stemmer as a
// plain CommonJS module with no typings of its own.
const stem = createRequire(import.meta.url)('wink-eng-lite-web-model/dist/porter-stemmer.js') as (word: string) => string;

const HAN = /\p{Script=Han}/u;
/** A stem shorter than this matches too much by prefix ("be", "us"): the whole term is matched instead. */
const MIN_STEM = 4;

export interface TermMatcher {
  /** The terms found in the text (a subset of the question's terms). */
  termsIn(text: string): Set<string>;
}

export function termMatcher(terms: string[]): TermMatcher {
  const han = terms.filter((t) => HAN.test(t));
  // One pass of one expression per fact: every non-Han term's prefix, longest first, at a word start.
  const prefixOf = new Map<string, string[]>();
  for (const t of terms) {
    if (HAN.test(t)) continue;
    const s = stem(t);
    const prefix = s.length >= MIN_STEM && t.startsWith(s) ? s : t;
    prefixOf.set(prefix, [...(prefixOf.get(prefix) ?? []), t]);
  }
  const prefixes = [...prefixOf.keys()].sort((a, b) => b.length - a.length);
  const re = prefixes.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${prefixes.map(escape).join('|')})`, 'gu') : null;
  return {
    termsIn(text) {
      const lower = text.toLowerCase();
      const found = new Set<string>();
      for (const t of han) if (lower.includes(t)) found.add(t);
      if (re) for (const m of lower.matchAll(re)) for (const t of prefixOf.get(m[0]) ?? []) found.add(t);
      return found;
    },
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
