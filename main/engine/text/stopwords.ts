import { createRequire } from 'node:module';

// The `stopword` lists leave out the question words that make up most of a question's filler
// ("what", "谁", "什么"…), and its Chinese list is single characters only, while jieba emits words.
// "so" ("so that nobody can edit") is a function word on NLTK's and spaCy's lists and on the bench's own
// (docs-qa.ts) but not on `stopword`'s: searched, it matched "so you can just run" in every guide. Of
// NLTK's other extra words, "not", "no", "when", "will", "off" and "down" carry a setting's meaning in
// documentation questions, and adding them all cost the answers shown on both docs sets (bench, all dev sets).
const QUESTION_EN = ['so', 'what', 'whom', 'whose', 'why', 'does', 'doing', 'done', 'the', 'tell', 'know', 's', 't'];
const QUESTION_ZH = [
  '什么', '哪', '哪里', '哪儿', '哪个', '哪些', '哪位', '谁', '如何', '怎么', '怎样', '怎么样', '为什么', '多少',
  '是否', '是不是', '请问', '吗', '呢', '的', '了', '是', '在', '有', '和', '与', '及', '以及', '一个', '这个',
  '那个', '这些', '那些', '我们', '你们', '他们', '她们', '它们', '什么样', '几', '关于', '哪一', '其', '被',
];

// Loaded on the first question rather than with the module (~30 ms): indexing workers never ask.
const require = createRequire(import.meta.url);
let stopWords: ReadonlySet<string> | null = null;

export function isStopWord(word: string): boolean {
  if (!stopWords) {
    const { eng, zho } = require('stopword') as { eng: string[]; zho: string[] };
    stopWords = new Set([...eng, ...zho, ...QUESTION_EN, ...QUESTION_ZH]);
  }
  return stopWords.has(word);
}

/**
 * The `stopword` list of each language the note-language detector names (ISO 639-1) other than English
 * and Chinese, whose words every question already leaves out.
 */
const LIST_OF: Record<string, string> = {
  af: 'afr', ar: 'ara', bg: 'bul', bn: 'ben', ca: 'cat', cs: 'ces', da: 'dan', de: 'deu', el: 'ell', es: 'spa',
  et: 'est', eu: 'eus', fa: 'fas', fi: 'fin', fr: 'fra', ga: 'gle', gl: 'glg', gu: 'guj', ha: 'hau', he: 'heb',
  hi: 'hin', hr: 'hrv', hu: 'hun', hy: 'hye', id: 'ind', it: 'ita', ja: 'jpn', ko: 'kor', ku: 'kur', la: 'lat',
  lt: 'lit', lv: 'lav', mr: 'mar', ms: 'msa', my: 'mya', nb: 'nob', nl: 'nld', no: 'nob', pa: 'panGu', pl: 'pol',
  pt: 'por', ro: 'ron', ru: 'rus', sk: 'slk', sl: 'slv', so: 'som', st: 'sot', sv: 'swe', sw: 'swa', th: 'tha',
  tl: 'tgl', tr: 'tur', uk: 'ukr', ur: 'urd', vi: 'vie', yo: 'yor', zu: 'zul',
};

/**
 * A Latin word without its accents: "dónde" is on Spanish's list as "donde". Only after Latin letters: in
 * Devanagari or Thai the marks are the word's vowels, and words would merge without them.
 */
const unaccented = (word: string) => word.normalize('NFD').replace(/(?<=\p{Script=Latin})\p{M}+/gu, '');

const languageLists = new Map<string, ReadonlySet<string>>();

/** The common words of a language other than English and Chinese (ISO 639-1), unaccented; null where no list is known. */
export function stopWordsOf(lang: string): ReadonlySet<string> | null {
  const key = LIST_OF[lang];
  if (!key) return null;
  let list = languageLists.get(lang);
  if (!list) {
    const lists = require('stopword') as Record<string, string[]>;
    list = new Set((lists[key] ?? []).map((w) => unaccented(w.toLowerCase())));
    languageLists.set(lang, list);
  }
  return list;
}

/** A common word of English, Chinese or the given language's list (stopWordsOf). */
export function isStopWordIn(word: string, also: ReadonlySet<string> | null): boolean {
  return isStopWord(word) || (also !== null && also.has(unaccented(word)));
}
