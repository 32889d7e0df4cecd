// How far the embedder can be trusted on this corpus, estimated from the corpus itself with no labels:
// the weight `loci` gives the dense ranking beside BM25 (issue 12: "weight each ranking … by the
// embedder's quality"). Two probes, both over sentences of the notes:
//
// - coverage: each sampled sentence, embedded as a question, should find its own note first, as BM25
//   does with the sentence's words. An embedder that does not know the corpus's language (MiniLM on
//   Chinese news: 3 of 32 sentences where BM25 finds 29) scores near 0.
// - context: a sentence and the same words in reverse order should not be the same vector. A static
//   word-vector embedder (the built-in GloVe SIF) averages word vectors, so it gives exactly the same
//   vector and reads nothing BM25 does not already read, only blurred: fused as a ranking of its own it
//   cost recall on the 10k news pool (52.5/57.6/53.6 → 51.7/56.2/52.6) and HotpotQA train-100 (93.0 →
//   92.5), while its part in the walk's seeds stays. A model that reads words in context (MiniLM, e5)
//   moves the vector, and found what BM25 missed (MuSiQue dense recall@5 85 with MiniLM against BM25's 45).
//
// Both use stored index state and one embedding call, made once per corpus and embedder and refreshed
// only when the number of chunks has moved by a quarter, so an edit does not pay it again.
import type { RetrievalContext } from './retriever.js';
import { probeSentences } from '../store/embedder-probes.js';
import { bm25ChunkScores, allChunkDocuments } from '../store/retrieval.js';
import { ftsMatchOf } from './query.js';
import { segmentWords } from '../text/segment.js';
import { isStopWord } from '../text/stopwords.js';
import { dot } from '../embed/embedder.js';

export interface EmbedderQuality {
  /** Sentences probed. */
  probes: number;
  /**
   * Share of probes whose own note dense ranks first, over the share BM25 ranks first (0–1); null when
   * not measured (a bag of words, which gets no weight whatever its coverage).
   */
  coverage: number | null;
  /**
   * How far reversing a sentence's word order moves its vector, relative to the distance between two
   * different sentences of the corpus (0: a bag of words).
   */
  orderSensitivity: number;
  /** The resulting trust in dense beside BM25, 0–1. */
  weight: number;
}

/** Sentences probed for coverage (a few tens: the estimate needs a share, not a ranking). */
export const COVERAGE_PROBES = 32;
/** Sentences reversed for the context probe. */
export const ORDER_PROBES = 8;
/** A probe sentence is at least this long (a heading or a list item says too little; a Chinese sentence is short). */
export const MIN_PROBE_CHARS = 30;
/**
 * Coverage below which dense does not count, and at which it counts fully (in between, in proportion).
 * Embedders that know the language: 0.58–1 on every English dev set (MiniLM, e5); MiniLM on the Chinese news: 0.10.
 */
export const NO_COVERAGE = 0.3;
export const FULL_COVERAGE = 0.6;
/**
 * Order sensitivity below which the embedder is taken for a bag of words, and at which dense counts
 * fully. GloVe: 0 on English, under 0.005 on Chinese (jieba cuts the reversed text a little otherwise);
 * MiniLM 0.11–0.19, e5 0.22–0.27 on every dev set.
 */
export const BAG_OF_WORDS = 0.02;
export const FULL_ORDER_SENSITIVITY = 0.1;
/** Re-estimate when the number of chunks has moved by this share since the last estimate. */
const REFRESH_SHARE = 0.25;
const PROBE_DEPTH = 20;

/**
 * The sentence's words (as the index segments them) in reverse order, spaced, so that an embedder that
 * segments the text again (Chinese, written unspaced) sees the same words.
 */
export function reversedWords(text: string): string {
  return segmentWords(text).reverse().join(' ');
}

function noteRank(chunks: { id: number }[], docOf: Map<number, number>, doc: number): number {
  const seen = new Set<number>();
  for (const c of chunks) {
    const d = docOf.get(c.id);
    if (d === undefined || seen.has(d)) continue;
    if (d === doc) return seen.size + 1;
    seen.add(d);
  }
  return Infinity;
}

/** Both probes over the current index (one embedding call). */
export async function estimateEmbedderQuality(ctx: RetrievalContext): Promise<EmbedderQuality> {
  const sentences = probeSentences(ctx.db, COVERAGE_PROBES, MIN_PROBE_CHARS);
  if (sentences.length === 0) return { probes: 0, coverage: 0, orderSensitivity: 0, weight: 0 };
  const ordered = sentences.filter((s) => segmentWords(s.text).length >= 6).slice(0, ORDER_PROBES);
  const asQuestions = (ctx.embedder.embedQueries ?? ctx.embedder.embed).bind(ctx.embedder);
  const vectors = await asQuestions([...sentences.map((s) => s.text), ...ordered.map((s) => reversedWords(s.text))]);
  // Distances of each sentence to its reversal, against distances between different sentences.
  const index = new Map(sentences.map((s, i) => [s.id, i]));
  let moved = 0;
  let apart = 0;
  let pairs = 0;
  ordered.forEach((s, j) => {
    const v = vectors[index.get(s.id)!]!;
    moved += 1 - dot(v, vectors[sentences.length + j]!);
    ordered.forEach((o, l) => {
      if (l === j) return;
      apart += 1 - dot(v, vectors[index.get(o.id)!]!);
      pairs++;
    });
  });
  const orderSensitivity = ordered.length && apart > 0 ? moved / ordered.length / (apart / pairs) : 0;
  const ramp = (x: number, lo: number, hi: number) => Math.max(0, Math.min(1, (x - lo) / (hi - lo)));
  const contextWeight = ramp(orderSensitivity, BAG_OF_WORDS, FULL_ORDER_SENSITIVITY);
  // A bag of words gets no weight whatever its coverage: the searches below are not worth making.
  if (contextWeight === 0) return { probes: sentences.length, coverage: null, orderSensitivity, weight: 0 };

  const docOf = allChunkDocuments(ctx.db);
  const matrix = ctx.cache.matrix('chunk');
  let denseFirst = 0;
  let bm25First = 0;
  sentences.forEach((s, i) => {
    if (noteRank(matrix.search(vectors[i]!, PROBE_DEPTH), docOf, s.docId) === 1) denseFirst++;
    const match = ftsMatchOf([...new Set(segmentWords(s.text).filter((w) => !isStopWord(w)))]);
    if (match && noteRank(bm25ChunkScores(ctx.db, match, PROBE_DEPTH), docOf, s.docId) === 1) bm25First++;
  });
  const coverage = Math.min(1, denseFirst / Math.max(1, bm25First));

  const weight = ramp(coverage, NO_COVERAGE, FULL_COVERAGE) * contextWeight;
  return { probes: sentences.length, coverage, orderSensitivity, weight };
}

const estimates = new WeakMap<object, { embedder: string; chunks: number; quality: Promise<EmbedderQuality> }>();

/**
 * The estimate for this index and embedder, kept per database handle across index generations until
 * the number of chunks has moved by REFRESH_SHARE.
 */
export function embedderQuality(ctx: RetrievalContext): Promise<EmbedderQuality> {
  const chunks = ctx.cache.matrix('chunk').size;
  const known = estimates.get(ctx.db);
  if (known && known.embedder === ctx.embedder.id && Math.abs(chunks - known.chunks) <= REFRESH_SHARE * Math.max(1, known.chunks)) return known.quality;
  // A probe that fails (an embeddings server that timed out on the batch) must not fail the question:
  // dense then gets no weight of its own, and the next question probes again.
  const quality = estimateEmbedderQuality(ctx).catch((): EmbedderQuality => {
    estimates.delete(ctx.db);
    return { probes: 0, coverage: null, orderSensitivity: 0, weight: 0 };
  });
  estimates.set(ctx.db, { embedder: ctx.embedder.id, chunks, quality });
  return quality;
}
