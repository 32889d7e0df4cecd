// The cluster hypothesis (documents that resemble each other are relevant to the same questions; Diaz's
// score regularisation) applied to the top passage only: a news question is asked about a story, and
// the other reports of that story share its wording, not the question's. The passage BM25 ranks first
// lends each candidate a share of its score in proportion to their similarity, so a second report of
// the same event (CRUD-RAG's 2- and 3-article questions) climbs past passages that match one question
// word by chance. Similarity is the cosine of tf-idf vectors over Han character bigrams, whose
// document frequencies the bigram re-reading already counts (han-bigrams.ts); a question with no Han
// text is returned unchanged, as there.
import type { Scored } from '../../embed/vector-matrix.js';
import type { RetrievalContext } from '../retriever.js';
import type { QueryAnalysis } from '../query.js';
import { bigramIdf, indexBigramStats, passageTexts, questionBigrams } from './han-bigrams.js';
import { hanBigramKeys, type BigramStats } from './han-bigram-counts.js';

/**
 * A text's vector over Han bigrams, unit length, as keys in ascending order with their weights: (1 + ln tf)
 * · idf with the index's statistics, or (1 + ln tf) alone without (SMART's ltc for the passage compared
 * against, lnc for the many compared: idf once, on one side, as classic vector-space retrieval weighs a
 * query against documents; looking up every candidate's bigrams in the 24 MB table cost ~7 ms a question).
 */
export interface BigramVector {
  keys: Uint32Array;
  weights: Float64Array;
}

export function bigramVector(text: string, stats?: BigramStats): BigramVector {
  // Sorted keys instead of a map: the repeats of a bigram become a run, and two vectors meet in one merge.
  const all = hanBigramKeys(text).sort();
  const keys = new Uint32Array(all.length);
  const weights = new Float64Array(all.length);
  let n = 0;
  let norm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i + 1;
    while (j < all.length && all[j] === all[i]) j++;
    const w = (1 + Math.log(j - i)) * (stats ? bigramIdf(stats, all[i]!) : 1);
    keys[n] = all[i]!;
    weights[n++] = w;
    norm += w * w;
    i = j;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < n; i++) weights[i]! *= scale;
  return { keys: keys.subarray(0, n), weights: weights.subarray(0, n) };
}

export function cosine(a: BigramVector, b: BigramVector): number {
  let dot = 0;
  for (let i = 0, j = 0; i < a.keys.length && j < b.keys.length; ) {
    const x = a.keys[i]!;
    const y = b.keys[j]!;
    if (x === y) dot += a.weights[i++]! * b.weights[j++]!;
    else if (x < y) i++;
    else j++;
  }
  return dot;
}

/**
 * The first passage, then the others re-scored as score + weight · cos(passage, first) · first's score
 * (at most the first's), best first; the list as it was for a question with no Han bigrams, or weight 0.
 */
export function withSameStory(ctx: RetrievalContext, qa: QueryAnalysis, ranked: Scored[], weight: number): Scored[] {
  const top = ranked[0];
  if (weight <= 0 || !top || ranked.length < 2 || questionBigrams(qa).length === 0) return ranked;
  const stats = indexBigramStats(ctx);
  const texts = passageTexts(ctx, qa, ranked.map((r) => r.id));
  const topVector = bigramVector(texts.get(top.id) ?? '', stats);
  if (topVector.keys.length === 0) return ranked;
  // The lender keeps its place: a passage lifted by its likeness to the first cannot pass it (the
  // second report of a story would otherwise overtake the report the question matched).
  const rest = ranked
    .slice(1)
    .map((r) => ({ id: r.id, score: Math.min(top.score, r.score + weight * cosine(topVector, bigramVector(texts.get(r.id) ?? '')) * top.score) }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
  return [top, ...rest];
}
