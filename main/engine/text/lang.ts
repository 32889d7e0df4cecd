import type { Lang } from '../types.js';

const HAN = /\p{Script=Han}/u;
const HAN_G = /\p{Script=Han}/gu;
const LETTER_G = /\p{L}/gu;
const LATIN_G = /\p{Script=Latin}/gu;

/**
 * Guesses the language of a note from its letters. Han ideographs carry roughly a word's worth of
 * meaning each, while a Latin word spends ~5 letters, so ideographs are weighted up before comparing;
 * a Chinese note with English product names in it still counts as Chinese.
 */
export function detectLang(text: string): Lang {
  const letters = text.match(LETTER_G)?.length ?? 0;
  if (letters === 0) return 'other';
  const han = HAN.test(text) ? (text.match(HAN_G)?.length ?? 0) : 0;
  const latin = text.match(LATIN_G)?.length ?? 0;
  const total = letters + han * 2;
  if (han * 3 >= total * 0.5) return 'zh';
  if (latin >= total * 0.5) return 'en';
  return 'other';
}

/** True when the string contains at least one Han ideograph. */
export function hasHan(text: string): boolean {
  return HAN.test(text);
}
