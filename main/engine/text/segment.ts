import { getJieba } from './jieba.js';
import { isStopWord } from './stopwords.js';

const HAN_RUN = /\p{Script=Han}+/gu;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

// One segmenter for all non-Chinese text: word boundaries for Latin/Cyrillic/etc. don't depend on
// the locale, and constructing Intl.Segmenter is costly enough to matter per chunk.
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });

/**
 * How Han runs are cut: 'precise' gives each character to exactly one word (for questions, and for
 * matching names in text); 'search' adds the shorter words inside long ones (jieba's search-engine
 * mode), so an index holding 中华人民共和国国务院 also answers a query for 国务院.
 */
export type HanCutMode = 'precise' | 'search';

/**
 * Splits text into lowercase words: Han runs with jieba, everything else with Intl.Segmenter.
 * NFKC first, so full-width Latin letters and digits in Chinese text match their ASCII forms.
 */
export function segmentWords(text: string, mode: HanCutMode = 'precise'): string[] {
  const normalised = text.normalize('NFKC').toLowerCase();
  const words: string[] = [];
  let last = 0;
  for (const match of normalised.matchAll(HAN_RUN)) {
    const start = match.index ?? 0;
    if (start > last) pushNonHanWords(normalised.slice(last, start), words);
    const jieba = getJieba();
    const cut = mode === 'search' ? jieba.cutForSearch(match[0], true) : jieba.cut(match[0], true);
    for (const w of cut) {
      const word = w.trim();
      if (word) words.push(word);
    }
    last = start + match[0].length;
  }
  if (last < normalised.length) pushNonHanWords(normalised.slice(last), words);
  return words;
}

// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL on purpose
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+(?:['.][a-z0-9]+)*/g;
const WHITESPACE = /\s+/u;

function pushNonHanWords(text: string, out: string[]): void {
  // Fast paths for the many short fragments between Chinese runs (punctuation, numbers, Latin words):
  // starting ICU's segmenter per fragment costs more than the segmentation itself.
  if (!HAS_LETTER_OR_DIGIT.test(text)) return;
  if (ASCII.test(text)) {
    for (const m of text.matchAll(ASCII_WORD)) out.push(m[0]);
    return;
  }
  // Mostly-ASCII text with the odd dash, quote or accented name: word boundaries always fall at white
  // space, so ASCII pieces take the fast path and only runs of pieces with other characters go to ICU
  // (which is several times slower per character).
  let run = '';
  for (const piece of text.split(WHITESPACE)) {
    if (ASCII.test(piece)) {
      if (run) pushIcuWords(run, out);
      run = '';
      for (const m of piece.matchAll(ASCII_WORD)) out.push(m[0]);
    } else {
      run = run ? `${run} ${piece}` : piece;
    }
  }
  if (run) pushIcuWords(run, out);
}

function pushIcuWords(text: string, out: string[]): void {
  for (const seg of wordSegmenter.segment(text)) {
    if (seg.isWordLike && HAS_LETTER_OR_DIGIT.test(seg.segment)) out.push(seg.segment);
  }
}

/**
 * Text for an FTS5 column with the unicode61 tokenizer: words separated by single spaces, Chinese in
 * search mode so every word a question is cut into (see queryTerms) is in the index.
 */
export function segmentForIndex(text: string): string {
  return segmentWords(text, 'search').join(' ');
}

/** The searchable words of a question: segmented like the index, minus stop words, deduplicated. */
export function queryTerms(question: string): string[] {
  const seen = new Set<string>();
  for (const word of segmentWords(question)) {
    if (!isStopWord(word)) seen.add(word);
  }
  return [...seen];
}
