import type { TaggedWord } from '@node-rs/jieba';
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

export interface ChineseTriple {
  subject: string;
  relation: string;
  object: string;
}

const NAME_TAGS = new Set(['nr', 'ns', 'nt', 'nz', 'eng']);
const NOUN_TAGS = new Set(['n', 'nr', 'ns', 'nt', 'nz', 'vn', 'eng']);
/** Adverbs and time words may stand between subject and verb (英特尔 已经 发布). */
const BEFORE_VERB_TAGS = new Set(['d', 't']);
/** Aspect particles may follow the verb (发布 了). */
const AFTER_VERB_TAGS = new Set(['ul', 'uz', 'ug']);
const MAX_PHRASE_WORDS = 4;

/**
 * Subject–verb–object from jieba's part-of-speech tags: a noun phrase, optional adverbs, a verb,
 * optional aspect particles, a noun phrase. The subject must hold a name (person, place, organisation,
 * other proper noun or a Latin word): without a parser, common-noun subjects are too often wrong.
 */
export function chineseTriples(sentence: string): ChineseTriple[] {
  const words = getJieba()
    .tag(sentence, true)
    .filter((w) => w.word.trim() !== '');
  const triples: ChineseTriple[] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i]!.tag !== 'v') continue;
    let s = i - 1;
    while (s >= 0 && BEFORE_VERB_TAGS.has(words[s]!.tag)) s--;
    const subject = nounPhraseEndingAt(words, s);
    if (!subject) continue;
    let o = i + 1;
    while (o < words.length && AFTER_VERB_TAGS.has(words[o]!.tag)) o++;
    const object = nounPhraseStartingAt(words, o);
    if (!object) continue;
    triples.push({ subject: subject.text, relation: words[i]!.word, object: object.text });
    i = object.end;
  }
  return triples;
}

function nounPhraseEndingAt(words: TaggedWord[], end: number): { text: string } | null {
  if (end < 0 || !NOUN_TAGS.has(words[end]!.tag)) return null;
  let start = end;
  while (start - 1 >= 0 && end - start + 1 < MAX_PHRASE_WORDS && NOUN_TAGS.has(words[start - 1]!.tag)) start--;
  const phrase = words.slice(start, end + 1);
  if (!phrase.some((w) => NAME_TAGS.has(w.tag))) return null;
  return { text: joinWords(phrase) };
}

function nounPhraseStartingAt(words: TaggedWord[], start: number): { text: string; end: number } | null {
  if (start >= words.length || !NOUN_TAGS.has(words[start]!.tag)) return null;
  let end = start;
  while (end + 1 < words.length && end - start + 1 < MAX_PHRASE_WORDS && NOUN_TAGS.has(words[end + 1]!.tag)) end++;
  return { text: joinWords(words.slice(start, end + 1)), end };
}

/** Chinese words join directly; Latin words and numbers keep a space between them (Intel GPU). */
function joinWords(words: TaggedWord[]): string {
  let out = '';
  for (const w of words) {
    if (out && /[A-Za-z0-9]$/.test(out) && /^[A-Za-z0-9]/.test(w.word)) out += ' ';
    out += w.word;
  }
  return out;
}
