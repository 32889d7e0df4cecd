/**
 * Lexical features for words GloVe lacks (names, jargon, all CJK text): a word and its character n-grams
 * are hashed to fixed pseudo-random directions, so texts that share words or word pieces point the same
 * way even with no trained vector. Deterministic: the same text always gives the same vector.
 */

const TABLE_ROWS = 4096; // power of two; two rows per feature → ~16M distinct directions
const SEED = 0x10c1;
/** Words whose unit vectors are memoised: text repeats its words, and hashing ~10 n-grams per word dominates CJK. */
const CACHE_WORDS = 32_768;
const WORD_SEED = 0x9e3779b9;
const CHAR_SEED = 0x85ebca6b;
const BIGRAM_SEED = 0xc2b2ae35;

export class HashedNgrams {
  private readonly table: Float32Array;
  private readonly cache = new Map<string, Float32Array>();

  constructor(readonly dim: number) {
    this.table = gaussianRows(TABLE_ROWS, dim, SEED);
  }

  /**
   * Adds `weight` × (unit-length lexical vector of `word`) to `acc`. Latin words use the whole word plus
   * boundary-marked trigrams (so "silverbullet" ≈ "silverbullets"); CJK words use the whole word plus its
   * characters and bigrams (so differently segmented Chinese still overlaps).
   */
  addWord(acc: Float32Array, word: string, weight: number, cjk: boolean): void {
    let v = this.cache.get(word);
    if (!v) {
      v = this.wordVector(word, cjk);
      // Dropping everything when full is crude but O(1), and a note folder's vocabulary refills it fast.
      if (this.cache.size >= CACHE_WORDS) this.cache.clear();
      this.cache.set(word, v);
    }
    for (let j = 0; j < v.length; j++) acc[j]! += weight * v[j]!;
  }

  /** Unit-length lexical vector of one word (zero only for the empty string). */
  wordVector(word: string, cjk: boolean): Float32Array {
    const v = new Float32Array(this.dim);
    const n = word.length;
    // A one- or two-character CJK word hashes like the character or bigram it is, so 京 and 北京 also
    // match inside longer words (北京市) that another sentence's segmentation kept whole.
    const wordSeed = cjk && n === 1 ? CHAR_SEED : cjk && n === 2 ? BIGRAM_SEED : WORD_SEED;
    this.addFeature(v, hashRange(word, 0, n, wordSeed), 1);
    if (cjk) {
      if (n >= 2) {
        const w = 0.5 / Math.sqrt(n);
        for (let i = 0; i < n; i++) this.addFeature(v, hashRange(word, i, i + 1, CHAR_SEED), w);
      }
      if (n >= 3) {
        const w = 1 / Math.sqrt(n - 1);
        for (let i = 0; i + 2 <= n; i++) this.addFeature(v, hashRange(word, i, i + 2, BIGRAM_SEED), w);
      }
    } else if (n >= 2) {
      // Trigrams of "<word>", computed without building the marked string.
      const grams = n; // n + 2 marked chars → n trigrams
      const w = 1 / Math.sqrt(grams);
      for (let i = -1; i + 2 <= n; i++) this.addFeature(v, hashMarkedTrigram(word, i), w);
    }
    let s = 0;
    for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
    if (s > 0) {
      const k = 1 / Math.sqrt(s);
      for (let j = 0; j < v.length; j++) v[j]! *= k;
    }
    return v;
  }

  private addFeature(v: Float32Array, h: number, w: number): void {
    const dim = this.dim;
    const h2 = fmix32(h ^ 0x5bd1e995);
    const a = (h & (TABLE_ROWS - 1)) * dim;
    const b = (h2 & (TABLE_ROWS - 1)) * dim;
    const wa = (h >>> 31 ? -w : w) * Math.SQRT1_2;
    const wb = (h2 >>> 31 ? -w : w) * Math.SQRT1_2;
    const t = this.table;
    for (let j = 0; j < dim; j++) v[j]! += wa * t[a + j]! + wb * t[b + j]!;
  }
}

/** FNV-1a over UTF-16 code units of s[start, end), finished with an avalanche so low bits are usable. */
function hashRange(s: string, start: number, end: number, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix32(h);
}

/** Hash of the trigram starting at marked position i of "<" + s + ">" (i = -1 is the "<"). */
function hashMarkedTrigram(s: string, i: number): number {
  let h = (0x811c9dc5 ^ 0x27d4eb2f) >>> 0;
  for (let k = i; k < i + 3; k++) {
    const c = k < 0 ? 0x3c : k >= s.length ? 0x3e : s.charCodeAt(k);
    h = Math.imul(h ^ c, 0x01000193);
  }
  return fmix32(h);
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Unit-length Gaussian rows from a seeded mulberry32 stream (Box–Muller). */
function gaussianRows(rows: number, dim: number, seed: number): Float32Array {
  let state = seed >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let j = 0; j < dim; j++) {
      const g = Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand());
      out[r * dim + j] = g;
      s += g * g;
    }
    const k = 1 / Math.sqrt(s);
    for (let j = 0; j < dim; j++) out[r * dim + j]! *= k;
  }
  return out;
}
