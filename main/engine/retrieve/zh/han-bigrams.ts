// Character-bigram BM25 for Chinese, as a second lexical ranking over BM25's candidates. The index
// holds jieba's words, and a question cut differently from the text misses the article: 他信落地 cut as
// 他 / 信 / 落地 no longer matches 他信 (a name), 做强做优做大 becomes 做强 / 优做 / 大. Overlapping
// character bigrams, the classic unit of Chinese retrieval, do not depend on the cut. Only BM25's top
// passages are re-scored (no second full-text table to write at indexing time); the bigrams' document
// frequencies are counted once per index generation. A question with no Han text has no bigrams, so
// nothing changes for other languages.
import type { Scored } from '../../embed/vector-matrix.js';
import type { RetrievalContext } from '../retriever.js';
import type { QueryAnalysis } from '../query.js';
import { chunkTexts, chunkTextsByNote } from '../../store/retrieval.js';
import { indexNoteVersions } from '../note-versions.js';
import { dfOf, hanBigrams, isHan, keyOf, NoteBigramCounts, type BigramStats } from './han-bigram-counts.js';
import { isStopWord } from '../../text/stopwords.js';
import { bm25Idf } from '../bm25.js';

/**
 * The question's bigrams, without those that are a question word themselves (什么, 哪些, 多少): they
 * say what is asked, not what it is about. A bigram across a question word and a content word stays
 * (他信 where jieba cut 他 / 信).
 */
export function questionBigrams(qa: Pick<QueryAnalysis, 'question'>): number[] {
  const keys = new Set<number>();
  const t = qa.question;
  for (let i = 0; i + 1 < t.length; i++) {
    const a = t.charCodeAt(i);
    const b = t.charCodeAt(i + 1);
    if (!isHan(a) || !isHan(b) || isStopWord(t.slice(i, i + 2))) continue;
    keys.add(keyOf(a, b));
  }
  return [...keys];
}

/**
 * The text of these passages, kept on the question's analysis: the bigram re-reading and the same-story
 * lift (same-story.ts) read the same candidates, and fetching them twice cost a millisecond or two.
 */
export function passageTexts(ctx: RetrievalContext, qa: QueryAnalysis, ids: number[]): Map<number, string> {
  let known = qa.memo.get('passage-texts') as Map<number, string> | undefined;
  if (!known) qa.memo.set('passage-texts', (known = new Map()));
  const missing = ids.filter((id) => !known.has(id));
  for (const { id, text } of chunkTexts(ctx.db, missing)) known.set(id, text);
  return new Map(ids.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : [])));
}

/**
 * The bigram statistics of the index, brought up to date once per index generation: after an edit only
 * the notes it rewrote are counted again (counting every chunk took 0.36 s of the first question after
 * an edit at 10k news).
 */
export function indexBigramStats(ctx: RetrievalContext): BigramStats {
  // 0.4 s to count at 10k news, 5–20 ms to read back (12.6 MB): a new process reads the last one's.
  return ctx.cache.snapshotted('han-bigrams', BIGRAM_STATS_FORMAT, () =>
    ctx.cache.lasting('han-bigram-counts', 'per note', () => new NoteBigramCounts()).update(indexNoteVersions(ctx), (docIds) => chunkTextsByNote(ctx.db, docIds)),
  );
}

/** The bigram statistics' shape and how they are counted (han-bigram-counts.ts): change it when either does. */
const BIGRAM_STATS_FORMAT = 'han-bigrams 1';

/** BM25's inverse document frequency of a bigram over the index's chunks. */
export function bigramIdf(s: BigramStats, key: number): number {
  const df = dfOf(s, key);
  return bm25Idf(s.chunks, df);
}

const K1 = 1.2;
const B = 0.75;

/** BM25 over Han bigrams of the given candidate chunks (best first; chunks matching no bigram left out). */
export function bigramRanking(ctx: RetrievalContext, qa: QueryAnalysis, candidates: Scored[]): Scored[] {
  const grams = questionBigrams(qa);
  if (grams.length === 0 || candidates.length === 0) return [];
  const stats = indexBigramStats(ctx);
  const idf = new Map(grams.map((g) => [g, bigramIdf(stats, g)]));
  const out: Scored[] = [];
  for (const [id, text] of passageTexts(ctx, qa, candidates.map((c) => c.id))) {
    const bigrams = hanBigrams(text);
    const tf = new Map<number, number>();
    for (const g of bigrams) if (idf.has(g)) tf.set(g, (tf.get(g) ?? 0) + 1);
    if (tf.size === 0) continue;
    const norm = K1 * (1 - B + (B * bigrams.length) / stats.avgLength);
    let score = 0;
    for (const [g, f] of tf) score += (idf.get(g)! * f * (K1 + 1)) / (f + norm);
    out.push({ id, score });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}

/**
 * BM25's passages re-scored as (1 − share) · word BM25 + share · bigram BM25, each over its best in the
 * list, best first; the list as it was when the question has no Han bigrams.
 */
export function withBigrams(ctx: RetrievalContext, qa: QueryAnalysis, words: Scored[], share: number): Scored[] {
  const bigrams = new Map(bigramRanking(ctx, qa, words).map((s) => [s.id, s.score]));
  if (bigrams.size === 0) return words;
  const maxWords = Math.max(...words.map((w) => w.score), Number.MIN_VALUE);
  const maxBigrams = Math.max(...bigrams.values(), Number.MIN_VALUE);
  return words
    .map((w) => ({ id: w.id, score: ((1 - share) * w.score) / maxWords + (share * (bigrams.get(w.id) ?? 0)) / maxBigrams }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
