const PUNCT_OR_SPACE = /[\p{P}\p{S}\s]+/gu;
const LEADING_ARTICLE = /^(?:the|a|an) /;

/**
 * The key that merges one entity across notes: NFKC, lowercase, punctuation and spacing collapsed,
 * a leading article dropped and the last English word folded to its singular ("The Coffee Roasters"
 * and "coffee roaster" meet).
 */
export function normaliseEntity(name: string): string {
  const base = name.normalize('NFKC').toLowerCase().replace(PUNCT_OR_SPACE, ' ').trim().replace(LEADING_ARTICLE, '');
  const words = base.split(' ');
  words[words.length - 1] = singular(words[words.length - 1]!);
  return words.join(' ');
}

/** Simple plural folding for regular English nouns; leaves short words and -ss/-us/-is alone. */
export function singular(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (/ies$/.test(word) && word.length > 4) return word.slice(0, -3) + 'y';
  if (/(?:ss|us|is|ous)$/.test(word)) return word;
  if (/(?:sses|xes|zes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word)) return word.slice(0, -1);
  return word;
}
