// Term proximity for Chinese questions: a passage where the question's words stand close together is
// more likely about what is asked than one where they are scattered over unrelated paragraphs (Tao &
// Zhai 2007, "An exploration of proximity measures in information retrieval"). News articles in a pool
// share most of a question's words — 中国, 发展, 表示 are everywhere — and BM25 counts them wherever
// they occur; proximity tells the article that says the thing from the one that mentions its parts.
// Two measures, both over character offsets of the question's words in the passage text (Chinese has
// no spaces, and jieba's cut of the text does not change where a word stands):
// - MinDist: the smallest distance between two different question words, turned into a bonus
//   ln(α + e^(−δ/s)) − ln α (Tao & Zhai's best-performing form; 0 when fewer than two words occur);
// - the best window: the largest idf-weighted share of the question's words inside any span of W
//   characters (a sentence or two), so a passage that holds the rare words of the question together wins.
// Only BM25's top passages (already re-read by bigrams) are re-scored; a question with no Han text is
// returned unchanged, as by the bigram re-reading and the same-story lift.
import type { Scored } from '../../embed/vector-matrix.js';
import type { RetrievalContext } from '../retriever.js';
import type { QueryAnalysis } from '../query.js';
import { indexBigramStats, passageTexts, questionBigrams } from './han-bigrams.js';
import { chunkDocumentFrequencies } from '../../store/retrieval.js';
import { bm25Idf } from '../bm25.js';

export interface ProximityParams {
  /** Weight of the MinDist bonus, added to the re-read score (whose best passage scores 1). */
  minDistance: number;
  /** Weight of the best window's idf-weighted share of the question's words. */
  window: number;
  /** Width of that window, in characters. */
  windowChars: number;
}

/** Tao & Zhai's α (how far a distant pair still counts) and the distance scale, in characters. */
const ALPHA = 0.3;
const DISTANCE_SCALE = 5;
/** Occurrences of one word looked at per passage (a word repeated hundreds of times adds nothing). */
const MAX_OCCURRENCES = 200;

/** Start offsets of each term in the text (lowercased, as the terms are), per term in order. */
export function termOffsets(text: string, terms: string[]): number[][] {
  const t = text.toLowerCase();
  return terms.map((w) => {
    const out: number[] = [];
    if (!w) return out;
    for (let i = t.indexOf(w); i >= 0 && out.length < MAX_OCCURRENCES; i = t.indexOf(w, i + 1)) out.push(i);
    return out;
  });
}

/** The smallest distance between occurrences of two different terms (null when fewer than two occur). */
export function minPairDistance(offsets: number[][]): number | null {
  const present = offsets.filter((o) => o.length > 0);
  let best: number | null = null;
  for (let i = 0; i < present.length; i++) {
    for (let j = i + 1; j < present.length; j++) {
      // Both lists are ascending: one merge finds the closest pair.
      const a = present[i]!;
      const b = present[j]!;
      for (let x = 0, y = 0; x < a.length && y < b.length; ) {
        const d = Math.abs(a[x]! - b[y]!);
        if (best === null || d < best) best = d;
        if (a[x]! < b[y]!) x++;
        else y++;
      }
    }
  }
  return best;
}

/** Tao & Zhai's proximity bonus for a minimum distance: from ln(1 + 1/α) at 0 down to 0 far apart. */
export function distanceBonus(distance: number | null): number {
  return distance === null ? 0 : Math.log(ALPHA + Math.exp(-distance / DISTANCE_SCALE)) - Math.log(ALPHA);
}

/** The largest weighted share of the terms that starts within `width` characters of each other. */
export function bestWindowShare(offsets: number[][], weights: number[], width: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) return 0;
  const events = offsets.flatMap((o, term) => o.map((at) => ({ at, term }))).sort((a, b) => a.at - b.at || a.term - b.term);
  const inWindow = new Array<number>(weights.length).fill(0);
  let covered = 0;
  let best = 0;
  for (let i = 0, j = 0; i < events.length; i++) {
    const e = events[i]!;
    if (inWindow[e.term]!++ === 0) covered += weights[e.term]!;
    for (; events[j]!.at < e.at - width; j++) {
      const term = events[j]!.term;
      if (--inWindow[term]! === 0) covered -= weights[term]!;
    }
    best = Math.max(best, covered);
  }
  return best / total;
}

/** BM25's idf of each of the question's terms over the index's chunks, kept on the question's analysis. */
function termIdf(ctx: RetrievalContext, qa: QueryAnalysis): number[] {
  let idf = qa.memo.get('term-idf') as number[] | undefined;
  if (!idf) {
    const chunks = indexBigramStats(ctx).chunks;
    idf = chunkDocumentFrequencies(ctx.db, qa.terms).map((df) => bm25Idf(chunks, df));
    qa.memo.set('term-idf', idf);
  }
  return idf;
}

/**
 * The passages re-scored as score + minDistance · MinDist bonus + window · best window share, best
 * first; the list as it was for a question with no Han bigrams, or both weights 0.
 */
export function withProximity(ctx: RetrievalContext, qa: QueryAnalysis, ranked: Scored[], p: ProximityParams): Scored[] {
  if ((p.minDistance <= 0 && p.window <= 0) || ranked.length < 2 || qa.terms.length === 0 || questionBigrams(qa).length === 0) return ranked;
  const idf = termIdf(ctx, qa);
  const texts = passageTexts(ctx, qa, ranked.map((r) => r.id));
  return ranked
    .map((r) => {
      const offsets = termOffsets(texts.get(r.id) ?? '', qa.terms);
      const bonus = p.minDistance * distanceBonus(minPairDistance(offsets)) + p.window * bestWindowShare(offsets, idf, p.windowChars);
      return { id: r.id, score: r.score + bonus };
    })
    .sort((a, b) => b.score - a.score || a.id - b.id);
}
