import { getJieba, getTfIdf } from '../../text/jieba.js';

/** Nouns, names, places, organisations, other proper nouns and verb-nouns: the parts that name things. */
const KEYWORD_POS = ['n', 'nr', 'ns', 'nt', 'nz', 'vn', 'eng'];
const KEYWORDS_PER_CHUNK = 6;

/** The chunk's most characteristic words by jieba's TF-IDF extractor, best first. */
export function chineseKeywords(text: string): string[] {
  return getTfIdf()
    .extractKeywords(getJieba(), text, KEYWORDS_PER_CHUNK, KEYWORD_POS)
    .map((k) => k.keyword.trim())
    .filter((k) => k.length >= 2 && /[\p{L}]/u.test(k));
}
