// Pseudo-relevance feedback (RM3, Lavrenko & Croft's relevance model with the original query kept): the
// top passages of the lexical ranking are taken as relevant, the words they share that the question
// lacks (weighted by their frequency in those passages and their rarity in the corpus) are added to
// the question, and the expanded question searches the whole index again. A document the question
// words miss — the second report of a story written in other words — is found by the words of the
// first. The words come from the full-text index itself, so it holds for every language the index
// segments; nothing is specific to one.
import type { Scored } from '../embed/vector-matrix.js';
import type { RetrievalContext } from './retriever.js';
import type { QueryAnalysis } from './query.js';
import { ftsMatchOf } from './query.js';
import { bm25ChunkScores, chunkWords, eachChunkWords } from '../store/retrieval.js';
import { isStopWord } from '../text/stopwords.js';

export interface FeedbackParams {
  /** Weight of the expansion words' BM25 beside the question's (0: off). */
  weight: number;
  /** Passages of the first ranking taken as relevant. */
  docs: number;
  /** Expansion words added to the question. */
  terms: number;
}

// On the 10k untitled news pool (bench, all dev sets in one run) recall@5 1/2/3-doc went from
// 53.0/60.0/55.0 to 53.4/62.2/56.5 (BM25 50.3/52.3/52.2). In an offline replay on two halves of the
// questions, weight 1 with the top 3 passages and 10 words gained on both halves of the 2- and 3-article
// questions; 5 passages or 20 words did no better; scaling the weight by how far the feedback passages
// agree or how far the first passage leads did not help; fusing the expanded search's ranking with the
// first (RRF, or scores with 0 for a passage one search missed) instead of interpolating both BM25s
// over the union lost on the 1-article questions; feedback from BM25's raw top instead of its re-read
// top: 52.3/61.0/55.8.
export const DEFAULT_FEEDBACK_PARAMS: FeedbackParams = { weight: 1, docs: 3, terms: 10 };

interface WordStats {
  df: Map<string, number>;
  chunks: number;
}

/** Document frequency of every indexed word over the chunks, counted once per index generation. */
export function wordStats(ctx: RetrievalContext): WordStats {
  return ctx.cache.derived('feedback:word-df', () => {
    const df = new Map<string, number>();
    const last = new Map<string, number>();
    let chunks = 0;
    for (const { id, seg } of eachChunkWords(ctx.db)) {
      chunks++;
      for (const w of seg.split(' ')) {
        if (!w || last.get(w) === id) continue;
        last.set(w, id);
        df.set(w, (df.get(w) ?? 0) + 1);
      }
    }
    return { df, chunks };
  });
}

const idfOf = (s: WordStats, w: string) => {
  const df = s.df.get(w) ?? 0;
  return Math.log(1 + (s.chunks - df + 0.5) / (df + 0.5));
};

/** Passages each search scores for the interpolation. */
const SCORED = 500;

const usable = (w: string) => w.length > 1 && /\p{L}/u.test(w) && !isStopWord(w);

/** The relevance model's best words outside the question, from the top passages of `ranked`. */
export function expansionOf(ctx: RetrievalContext, qa: QueryAnalysis, ranked: Scored[], p: FeedbackParams): { term: string; weight: number }[] {
  const top = ranked.slice(0, p.docs);
  if (top.length === 0) return [];
  const stats = wordStats(ctx);
  const words = new Map(chunkWords(ctx.db, top.map((t) => t.id)).map((r) => [r.id, r.seg]));
  const asked = new Set(qa.terms);
  // RM1: each passage counts by its share of the feedback's score, each word by its share of the passage.
  const total = top.reduce((a, t) => a + Math.max(t.score, 0), 0) || 1;
  const weight = new Map<string, number>();
  for (const t of top) {
    const passage = (words.get(t.id) ?? '').split(' ').filter(usable);
    const share = Math.max(t.score, 0) / total / Math.max(1, passage.length);
    for (const w of passage) {
      // A word no other passage has cannot bring in another.
      if (asked.has(w) || (stats.df.get(w) ?? 0) < 2) continue;
      weight.set(w, (weight.get(w) ?? 0) + share * idfOf(stats, w));
    }
  }
  return [...weight]
    .map(([term, w]) => ({ term, weight: w }))
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, p.terms);
}

/**
 * RM3's interpolated query over the whole index: the candidates of the question's search and of the
 * expansion words' search, each scored as BM25(question) / its best + weight · BM25(expansion) / its
 * best, best first, to `depth`. `feedback` is the ranking whose top passages are taken as relevant
 * (after re-reading, so the feedback is the best the first stage has); the question's own ranking is
 * returned unchanged when there is nothing to expand.
 */
export function expandedRanking(ctx: RetrievalContext, qa: QueryAnalysis, question: Scored[], feedback: Scored[], depth: number, p: FeedbackParams): Scored[] {
  if (p.weight <= 0 || !qa.ftsMatch || feedback.length === 0) return question;
  const expansion = ftsMatchOf(expansionOf(ctx, qa, feedback, p).map((t) => t.term));
  if (!expansion) return question;
  // Scores from two plain searches (FTS5 ranks every match either way; restricting a MATCH to given
  // rowids ran it once per row, ~80 ms a question at 10k). A candidate beyond a search's first
  // SCORED passages counts 0 there.
  const byQuestion = new Map(bm25ChunkScores(ctx.db, qa.ftsMatch, SCORED).map((s) => [s.id, s.score]));
  const expanded = bm25ChunkScores(ctx.db, expansion, SCORED);
  const byExpansion = new Map(expanded.map((s) => [s.id, s.score]));
  const ids = [...new Set([...question.map((s) => s.id), ...expanded.slice(0, depth).map((s) => s.id)])];
  const bestQuestion = Math.max(...byQuestion.values(), Number.MIN_VALUE);
  const bestExpansion = Math.max(...byExpansion.values(), Number.MIN_VALUE);
  return ids
    .map((id) => ({ id, score: (byQuestion.get(id) ?? 0) / bestQuestion + (p.weight * (byExpansion.get(id) ?? 0)) / bestExpansion }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, depth);
}
