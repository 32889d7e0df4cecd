import type { Lang } from '../types.js';

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;

/**
 * Guesses the language of a note from its letters. Han ideographs carry roughly a word's worth of
 * meaning each, while a Latin word spends ~5 letters, so ideographs are weighted up before comparing;
 * a Chinese note with English product names in it still counts as Chinese. Runs on every chunk and
 * sentence, so ASCII and the main CJK block are counted without a regex.
 */
export function detectLang(text: string): Lang {
  let han = 0;
  let latin = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) latin++;
    } else if (c >= 0x4e00 && c <= 0x9fff) {
      han++;
    } else {
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      if (cp > 0xffff) i++;
      if (!LETTER.test(ch)) continue;
      if (HAN.test(ch)) han++;
      else if (LATIN.test(ch)) latin++;
      else other++;
    }
  }
  const total = han * 3 + latin + other;
  if (total === 0) return 'other';
  if (han * 3 >= total * 0.5) return 'zh';
  if (latin >= total * 0.5) return 'en';
  return 'other';
}

/** True when the string contains at least one Han ideograph. */
export function hasHan(text: string): boolean {
  return HAN.test(text);
}
