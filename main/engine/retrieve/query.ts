// The question analysed once (words, search terms, candidate names, embedding) and the first-stage
// rankings every method builds on (BM25 and dense over chunks), memoised on the analysis so `loci`,
// `ppr`, `hig`, `pgr` and the extractive answer share them instead of segmenting and searching again.
import type { Scored } from '../embed/vector-matrix.js';
import type { RetrievalContext } from './retriever.js';
import { segmentWords } from '../text/segment.js';
import { isStopWordIn, stopWordsOf } from '../text/stopwords.js';
import { textLanguage } from '../ingest/note-language.js';
import { languageCounts } from '../store/languages.js';
import { withoutQuestionFrame } from '../text/question-frame.js';
import { placeWordsOf } from '../text/place-adjectives.js';
import { hasHan } from '../text/lang.js';
import { normalizeName } from '../store/names.js';
import { bm25ChunkScores } from '../store/retrieval.js';

export interface QueryAnalysis {
  question: string;
  /** Lowercase words as the index segments them, without the frame that names the notes. */
  words: string[];
  /** Searchable words: no stop words, deduplicated (what BM25 matches). */
  terms: string[];
  /**
   * Words that stand for a term in another form, by term (Ethiopian → Ethiopia): searched with the terms,
   * and a fact holding one holds the term.
   */
  variants: ReadonlyMap<string, string[]>;
  /** FTS5 MATCH expression over the terms and their variants (null when the question has none). */
  ftsMatch: string | null;
  /** Word n-grams under name normalisation, for finding entity names and titles in the question. */
  names: string[];
  embedding: Float32Array;
  /** Rankings already computed for this question, by key (e.g. `bm25:50`). */
  memo: Map<string, unknown>;
}

/** Longest name, in words, looked for in the question. */
const MAX_NAME_WORDS = 6;

/** An FTS5 MATCH expression: any of the terms, each quoted so no term is read as syntax. */
export function ftsMatchOf(terms: string[]): string | null {
  const usable = terms.filter((t) => t.length > 0);
  return usable.length ? usable.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ') : null;
}

/** Word n-grams (Han words joined without spaces, as names are written), normalised like entity names. */
export function nameGrams(words: string[], maxWords = MAX_NAME_WORDS, also: ReadonlySet<string> | null = null): string[] {
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    let gram = '';
    for (let n = 0; n < maxWords && i + n < words.length; n++) {
      const w = words[i + n]!;
      gram = n === 0 ? w : hasHan(w) && hasHan(gram.slice(-1)) ? gram + w : `${gram} ${w}`;
      if (n === 0 && isStopWordIn(w, also)) break;
      const key = normalizeName(gram);
      if (key.length > 1) out.add(key);
    }
  }
  return [...out];
}

/** A question's searchable words: its words as the index segments them, no stop words, deduplicated. */
export function questionTerms(question: string, also: ReadonlySet<string> | null = null): string[] {
  return termsOf(askedWords(question), also);
}

/** The words an answer's passages are marked by: the question's terms and their variants, as searched over this index. */
export async function questionSearchedWords(ctx: RetrievalContext, question: string): Promise<string[]> {
  const terms = questionTerms(question, await questionStopWords(ctx, question));
  return searchedWords(terms, variantsOf(terms, question));
}

/** The question's words as the index segments them, less the frame that names the notes ("what do my notes say about"). */
function askedWords(question: string): string[] {
  return withoutQuestionFrame(segmentWords(question));
}

function termsOf(words: string[], also: ReadonlySet<string> | null = null): string[] {
  return [...new Set(words.filter((w) => !isStopWordIn(w, also)))];
}

/**
 * The common words of the question's language, where the notes are written in it too and it is neither
 * English nor Chinese (whose common words every question leaves out): "Wo wurde die Gründerin …" searches
 * neither "wo" nor "die". Asked in English of a library with German notes, "die" and "war" stay words.
 * The language detector loads only for a library that has such notes.
 */
async function questionStopWords(ctx: RetrievalContext, question: string): Promise<ReadonlySet<string> | null> {
  const languages = ctx.cache.derived('note-languages-with-stop-words', () => Object.keys(languageCounts(ctx.db)).filter((l) => stopWordsOf(l)));
  if (!languages.length) return null;
  const lang = await textLanguage(question);
  return lang && languages.includes(lang) ? stopWordsOf(lang) : null;
}

/**
 * Other words that stand for a term: a place for its adjective and back ("Ethiopian beans" → the note
 * "Ethiopia Guji Natural"), which no stem joins; a place's adjectives only when the question writes it as
 * a name ("Turkey", not "turkey"). Only words the question does not hold itself.
 */
function variantsOf(terms: string[], question: string): Map<string, string[]> {
  const names = new Set((question.match(/\p{Lu}[\p{L}\p{M}]*/gu) ?? []).map((w) => w.toLowerCase()));
  const out = new Map<string, string[]>();
  for (const t of terms) {
    const others = [...placeWordsOf(t, names.has(t))].filter((w) => !terms.includes(w));
    if (others.length) out.set(t, others);
  }
  return out;
}

/** What BM25 and the title ranking look for: the terms and their variants. */
export function searchedWords(terms: string[], variants: ReadonlyMap<string, string[]>): string[] {
  return [...new Set([...terms, ...terms.flatMap((t) => variants.get(t) ?? [])])];
}

export async function analyseQuery(ctx: RetrievalContext, question: string): Promise<QueryAnalysis> {
  return ctx.cache.analysis(question, async () => {
    const words = askedWords(question);
    const also = await questionStopWords(ctx, question);
    const terms = termsOf(words, also);
    const variants = variantsOf(terms, question);
    return {
      question,
      words,
      terms,
      variants,
      ftsMatch: ftsMatchOf(searchedWords(terms, variants)),
      names: nameGrams(words.map((w) => w.replace(/['’]s$/, '')), MAX_NAME_WORDS, also),
      embedding: await ctx.cache.embedQuery(question),
      memo: new Map(),
    };
  });
}

/**
 * A ranking of this question to depth k: the top k of a deeper one already computed when there is
 * one (loci asks for 50, its walk's seeds for 30; one search serves both), else computed and kept.
 */
function ranked(qa: QueryAnalysis, kind: string, k: number, make: (depth: number) => Scored[]): Scored[] {
  const key = `${kind}:deepest`;
  const known = qa.memo.get(key) as { depth: number; list: Scored[] } | undefined;
  if (known && (known.depth >= k || known.list.length < known.depth)) return known.list.slice(0, k);
  const list = make(k);
  qa.memo.set(key, { depth: k, list });
  return list;
}

export function bm25Ranking(ctx: RetrievalContext, qa: QueryAnalysis, k: number): Scored[] {
  return ranked(qa, 'bm25', k, (depth) => (qa.ftsMatch ? bm25ChunkScores(ctx.db, qa.ftsMatch, depth) : []));
}

export function denseRanking(ctx: RetrievalContext, qa: QueryAnalysis, k: number): Scored[] {
  return ranked(qa, 'dense', k, (depth) => ctx.cache.matrix('chunk').search(qa.embedding, depth));
}
