// Title evidence: the question's words found in note titles (a short field, so a match says much), and
// the titles the question names outright. Why titles count as they do: docs/tuning.md (loci).
import type { Scored } from '../../embed/vector-matrix.js';
import type { RetrievalContext } from '../retriever.js';
import { bm25Idf } from '../bm25.js';
import { indexedTitles } from '../../store/retrieval.js';
import { segmentWords } from '../../text/segment.js';
import { isStopWord } from '../../text/stopwords.js';

export interface TitleIndex {
  titleOf: Map<number, string>;
  /** Title word → documents whose title has it. */
  postings: Map<string, number[]>;
  titleWords: Map<number, number>;
  docs: number;
  avgTitleWords: number;
}

export function titleIndex(ctx: RetrievalContext): TitleIndex {
  return ctx.cache.derived('loci:titles', () => {
    const rows = indexedTitles(ctx.db);
    const postings = new Map<string, number[]>();
    const titleOf = new Map<number, string>();
    const titleWords = new Map<number, number>();
    let total = 0;
    const add = <K>(m: Map<K, number[]>, key: K, id: number) => {
      const list = m.get(key);
      if (list) list.push(id);
      else m.set(key, [id]);
    };
    for (const r of rows) {
      titleOf.set(r.id, r.title);
      const words = [...new Set(segmentWords(r.title).filter((w) => !isStopWord(w)))];
      titleWords.set(r.id, words.length);
      total += words.length;
      for (const w of words) add(postings, w, r.id);
    }
    return { titleOf, postings, titleWords, docs: rows.length, avgTitleWords: rows.length ? total / rows.length : 1 };
  });
}

/** BM25 of the question's words against document titles alone. */
export function titleRanking(t: TitleIndex, terms: string[]): Scored[] {
  const k1 = 1.2;
  const b = 0.75;
  const scores = new Map<number, number>();
  for (const w of terms) {
    const docs = t.postings.get(w);
    if (!docs) continue;
    const idf = bm25Idf(t.docs, docs.length);
    for (const d of docs) {
      const len = t.titleWords.get(d) ?? 1;
      const tf = (1 * (k1 + 1)) / (1 + k1 * (1 - b + (b * len) / t.avgTitleWords));
      scores.set(d, (scores.get(d) ?? 0) + idf * tf);
    }
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b2) => b2.score - a.score);
}

/**
 * The titles a question names: word n-grams that are a title, less those inside a longer one it names
 * ("King Arthur" in "King Arthur Was a Gentleman" names the film, not the king).
 */
export function namedTitles(words: string[], maxWords: number, isTitle: (gram: string) => boolean): string[] {
  const found: { start: number; end: number; gram: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    let gram = '';
    for (let n = 0; n < maxWords && i + n < words.length; n++) {
      gram = n === 0 ? words[i]! : `${gram} ${words[i + n]!}`;
      if (isTitle(gram)) found.push({ start: i, end: i + n + 1, gram });
    }
  }
  const inside = (a: (typeof found)[number], b: (typeof found)[number]) => b !== a && b.start <= a.start && a.end <= b.end && b.end - b.start > a.end - a.start;
  return [...new Set(found.filter((a) => !found.some((b) => inside(a, b))).map((a) => a.gram))];
}
