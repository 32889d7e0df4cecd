import { segmentWords } from '../text/segment.js';
import { normalize, type Embedder } from './embedder.js';
import { DEFAULT_GLOVE_FILE, readGloveBinary } from './glove-binary.js';
import { HashedNgrams } from './hashed-ngrams.js';

export const STATIC_EMBEDDER_ID = 'glove-100d-sif@2';

/**
 * The model whose vectors are worth keeping for a text that comes back (store/released-vectors.ts): the
 * embedder's, unless it is the built-in one, whose vectors are computed from a text's words at once.
 */
export function keptVectorsModel(embedder: Embedder): string | null {
  return embedder.id.startsWith('glove-') && embedder.id.endsWith('-sif@2') ? null : embedder.id;
}

/** The vocabulary size STATIC_EMBEDDER_ID stands for; another table gives other vectors, so another id. */
const DEFAULT_VOCABULARY = 100_000;

/**
 * SIF smoothing constant (Arora et al. 2017 use 1e-3…1e-4): frequent words weigh little. 3e-4 ranked
 * HotpotQA train paragraphs best among 1e-4…3e-3 (recall@5 0.545 vs 0.510 at 1e-3, 994-paragraph pool).
 */
const SIF_A = 3e-4;
/** Norm of a word GloVe lacks, relative to an average GloVe word vector: present, but below real vectors. */
const LEXICAL_WEIGHT = 0.5;

/** Words the common component is estimated from. */
const COMMON_COMPONENT_WORDS = 5000;

/**
 * The commonest Chinese function words: the SIF weight GloVe gives "the"/"of", which CJK text (having no
 * GloVe frequencies) would otherwise miss.
 */
const CJK_FUNCTION_WORDS = new Set(
  '的 了 是 在 和 与 及 也 就 都 而 或 着 过 被 把 从 对 为 以 于 之 其 这 那 个 一个 我们 他们 你 我 他 她 它 有 没有 不 很 非常 等 中 上 下 将 已 已经 可以 会 要 能 又 还 并 但 但是 如果 因为 所以'.split(' '),
);
/** On CRUD-RAG questions (384, 2,000-article pool) hit@10 rose from 0.29 at weight 1 to 0.38 at 0.1–0.3. */
const CJK_FUNCTION_WEIGHT = 0.2;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

interface StaticModel {
  id: string;
  dim: number;
  row: Map<string, number>;
  /** SIF weight × quantisation scale per row, so one multiply dequantises and weights. */
  coef: Float32Array;
  vectors: Int8Array;
  lexicalNorm: number;
  ngrams: HashedNgrams;
  /** The direction every averaged GloVe sentence shares (SIF's "common component"), removed from each. */
  common: Float32Array;
}

const models = new Map<string, Promise<StaticModel>>();

/**
 * A model's common component as computed by a thread that loaded it, with what identifies the table it
 * came from. It takes ~100 ms of power iteration per load; the indexing workers are handed the engine
 * thread's (pool.ts) rather than each computing the same floats again on the indexing run's clock.
 */
export interface CommonComponentSeed {
  file: string;
  count: number;
  dim: number;
  fingerprint: number;
  common: Float32Array;
}

const computedCommons = new Map<string, CommonComponentSeed>();
const seededCommons = new Map<string, CommonComponentSeed>();

/** The common components this thread has computed, to hand to worker threads. */
export function computedCommonComponents(): CommonComponentSeed[] {
  return [...computedCommons.values()];
}

/** Common components another thread computed: used when this thread loads the same table. */
export function seedCommonComponents(seeds: CommonComponentSeed[]): void {
  for (const seed of seeds) seededCommons.set(seed.file, seed);
}

/** A cheap hash of a strided sample of the table's vectors: another table under the same name differs. */
function tableFingerprint(vectors: Int8Array): number {
  let h = 0x811c9dc5;
  const step = Math.max(1, Math.floor(vectors.length / 4096));
  for (let i = 0; i < vectors.length; i += step) h = Math.imul(h ^ (vectors[i]! & 0xff), 0x01000193);
  return h >>> 0;
}

/**
 * The built-in embedder: SIF-weighted average of GloVe 100-d word vectors, plus hashed character n-grams
 * for words GloVe lacks (names, CJK), L2-normalised. Needs the binary built by scripts/build-glove.mjs.
 */
export async function createStaticEmbedder(opts: { file?: string } = {}): Promise<StaticEmbedder> {
  const file = opts.file ?? DEFAULT_GLOVE_FILE;
  let loading = models.get(file);
  if (!loading) {
    loading = Promise.resolve().then(() => loadModel(file));
    models.set(file, loading);
    // A failed load (missing binary) must not stay cached: the user may build it and retry.
    loading.catch(() => models.delete(file));
  }
  const model = await loading;
  return {
    id: model.id,
    dim: model.dim,
    embed: async (texts) => texts.map((t) => embedText(model, t)),
    sums: {
      words: (text) => segmentWords(text),
      add: (acc, words) => {
        for (const word of words) addWord(model, acc, word);
      },
      finish: (acc) => finishSum(model, Float32Array.from(acc)),
    },
  };
}

/**
 * The built-in embedder's vector of a text is its words' weighted sum, finished (common component
 * removed, normalised). A caller holding the words of a text's pieces builds the sum piece by piece:
 * adding the same words in the same order does the same float operations, so the vector is identical
 * to `embed` of the joined text — without segmenting a title, a sentence or a mind-map path again.
 */
export interface WordSums {
  /** The words `embed` reads in a text, in order. */
  words(text: string): string[];
  /** Adds the words' weighted vectors to `acc` (a running sum of `dim` floats, zero to start). */
  add(acc: Float32Array, words: readonly string[]): void;
  /** The finished vector of a running sum (`acc` is left as it was). */
  finish(acc: Float32Array): Float32Array;
}

export interface StaticEmbedder extends Embedder {
  readonly sums: WordSums;
}

function loadModel(file: string): StaticModel {
  const table = readGloveBinary(file);
  const { dim, count, words, ranks, scales, vectors } = table;
  const row = new Map<string, number>();
  for (let r = 0; r < count; r++) row.set(words[r]!, r);
  // Zipf estimate of unigram probability from frequency rank: p(r) = 1 / ((r + 1) · H_N).
  const harmonic = Math.log(table.sourceSize) + 0.5772156649 + 1 / (2 * table.sourceSize);
  const coef = new Float32Array(count);
  let normSum = 0;
  for (let r = 0; r < count; r++) {
    const p = 1 / ((ranks[r]! + 1) * harmonic);
    coef[r] = (SIF_A / (SIF_A + p)) * scales[r]!;
    let s = 0;
    for (let j = r * dim, end = j + dim; j < end; j++) s += vectors[j]! * vectors[j]!;
    normSum += Math.sqrt(s) * scales[r]!;
  }
  const meanNorm = count > 0 ? normSum / count : 1;
  const fingerprint = tableFingerprint(vectors);
  const seed = seededCommons.get(file);
  const common =
    seed && seed.count === count && seed.dim === dim && seed.fingerprint === fingerprint
      ? seed.common
      : commonComponent(coef, vectors, dim, Math.min(COMMON_COMPONENT_WORDS, count));
  computedCommons.set(file, { file, count, dim, fingerprint, common });
  return {
    id: count === DEFAULT_VOCABULARY && dim === 100 ? STATIC_EMBEDDER_ID : `glove-${dim}d-${count}w-sif@2`,
    dim,
    row,
    coef,
    vectors,
    lexicalNorm: LEXICAL_WEIGHT * meanNorm,
    ngrams: new HashedNgrams(dim),
    common,
  };
}

/**
 * SIF removes the first principal component of a corpus's sentence vectors. With no corpus at load time
 * we take it from the SIF-weighted vectors of the most frequent words, which dominate every sentence: the
 * direction is stable (top 2k and top 10k words agree to cosine 0.995). Uncentred power iteration.
 */
function commonComponent(coef: Float32Array, vectors: Int8Array, dim: number, n: number): Float32Array {
  let u = new Float64Array(dim).fill(1 / Math.sqrt(dim));
  const row = new Float64Array(dim);
  for (let iter = 0; iter < 100; iter++) {
    const next = new Float64Array(dim);
    for (let r = 0; r < n; r++) {
      let s = 0;
      for (let j = 0; j < dim; j++) {
        row[j] = coef[r]! * vectors[r * dim + j]!;
        s += row[j]! * u[j]!;
      }
      for (let j = 0; j < dim; j++) next[j]! += s * row[j]!;
    }
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += next[j]! * next[j]!;
    norm = Math.sqrt(norm);
    if (norm === 0) return new Float32Array(dim);
    let change = 0;
    for (let j = 0; j < dim; j++) {
      next[j]! /= norm;
      change += Math.abs(next[j]! - u[j]!);
    }
    u = next;
    if (change < 1e-7) break;
  }
  return Float32Array.from(u);
}


function embedText(m: StaticModel, text: string): Float32Array {
  const acc = new Float32Array(m.dim);
  if (!text) return acc;
  // The index's own word split: jieba for Chinese (several times faster than ICU's and the same words
  // BM25 sees), Intl.Segmenter for everything else.
  for (const word of segmentWords(text)) addWord(m, acc, word);
  return finishSum(m, acc);
}

function finishSum(m: StaticModel, acc: Float32Array): Float32Array {
  let proj = 0;
  for (let j = 0; j < m.dim; j++) proj += acc[j]! * m.common[j]!;
  for (let j = 0; j < m.dim; j++) acc[j]! -= proj * m.common[j]!;
  return normalize(acc);
}

function addWord(m: StaticModel, acc: Float32Array, word: string): void {
  if (word.charCodeAt(0) >= 0x1100 && CJK.test(word)) {
    m.ngrams.addWord(acc, word, m.lexicalNorm * (CJK_FUNCTION_WORDS.has(word) ? CJK_FUNCTION_WEIGHT : 1), true);
    return;
  }
  const r = m.row.get(word);
  if (r !== undefined) return addRow(m, acc, r);
  // GloVe tokenised clitics apart ("do" + "n't", "john" + "'s"); the segmenter keeps them whole.
  const clitic = /^(.+?)(n't|'s|'ll|'re|'ve|'d|'m)$/.exec(word.replace(/\u2019/g, "'"));
  if (clitic) {
    const stem = m.row.get(clitic[1]!);
    const tail = m.row.get(clitic[2]!);
    if (stem !== undefined) {
      addRow(m, acc, stem);
      if (tail !== undefined) addRow(m, acc, tail);
      return;
    }
  }
  m.ngrams.addWord(acc, word, m.lexicalNorm, false);
}

function addRow(m: StaticModel, acc: Float32Array, r: number): void {
  const k = m.coef[r]!;
  const v = m.vectors;
  const base = r * m.dim;
  for (let j = 0; j < m.dim; j++) acc[j]! += k * v[base + j]!;
}
