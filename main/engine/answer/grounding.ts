// Grounding a generated answer (issue 40): each sentence is matched against the sentences of the sources it
// was written from — IDF-weighted token recall (ROUGE-1 recall over content words, rare words weighing more)
// plus the index's embedder — and its citations are corrected: a source that does not support it loses its
// mark, the best source that does gains one, and a sentence nothing supports is flagged. Small local models
// often cite nothing or the wrong source; this runs on the finished text, so streaming is untouched.
import stem from 'wink-eng-lite-web-model/dist/porter-stemmer.js';
import { dot, normalize, type Embedder } from '../embed/embedder.js';
import { hasHan } from '../text/lang.js';
import { segmentWords } from '../text/segment.js';
import { isStopWord } from '../text/stopwords.js';
import type { SentenceSupport } from '../api.js';
import type { RetrievedContext } from '../types.js';

/** Support at or above this marks a sentence as found in the notes (and lets its best source be cited). */
export const SUPPORTED = 0.5;
/** A citation the model wrote is kept while its source supports the sentence at least this much. */
export const KEEP_CITED = 0.3;
/** How much of the score the embedding similarity carries when an embedder is given (the rest is lexical). */
const EMBEDDING_WEIGHT = 0.25;
/** A second source is cited beside the best one when it supports the sentence nearly as well. */
const NEAR_BEST = 0.9;

export interface GroundedAnswer {
  text: string;
  /** Source numbers cited, in order of first citation. */
  citations: number[];
  support: SentenceSupport[];
}

const CITATION = /\[(\d+(?:\s*[,，;]\s*\d+)*)\]/g;
const LEADING_CITATIONS = /^(?:\s*\[\d+(?:\s*[,，;]\s*\d+)*\])+/;
const TRAILING_PUNCT = /[\s.!?。！？;；:：,，]*$/u;
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

interface Span {
  start: number;
  end: number;
}

/** Sentence spans of a text: a line ends a sentence too (bullets, headings), and marks opening a sentence ("Norway. [2] She…") belong to the one before. */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    let lineSpans: Span[] = [];
    for (const seg of sentenceSegmenter.segment(line)) {
      let start = lineStart + seg.index;
      let end = start + seg.segment.length;
      const lead = LEADING_CITATIONS.exec(seg.segment)?.[0];
      if (lead && lineSpans.length) {
        lineSpans[lineSpans.length - 1]!.end = start + lead.length;
        start += lead.length;
      }
      while (start < end && /\s/.test(text[start]!)) start++;
      while (end > start && /\s/.test(text[end - 1]!)) end--;
      if (end > start) lineSpans.push({ start, end });
    }
    lineSpans = lineSpans.filter((s) => /[\p{L}\p{N}]/u.test(text.slice(s.start, s.end).replace(CITATION, '')));
    spans.push(...lineSpans);
    lineStart += line.length + 1;
  }
  return spans;
}

/** Content words, stemmed (Porter; Han words as cut), without stop words. */
export function contentTokens(text: string): string[] {
  return segmentWords(text.replace(CITATION, ' '))
    .filter((w) => !isStopWord(w))
    .map((w) => (hasHan(w) ? w : stem(w)));
}

function citedIn(sentence: string, given: number): number[] {
  const out: number[] = [];
  for (const m of sentence.matchAll(CITATION)) {
    for (const n of m[1]!.split(/\s*[,，;]\s*/).map(Number)) if (n >= 1 && n <= given && !out.includes(n)) out.push(n);
  }
  return out;
}

/** A sentence (or two adjacent ones) of a source, with its words and, when embedded, its vector. */
interface Unit {
  source: number;
  tokens: Set<string>;
  vec?: Float32Array;
}

function sourceSentences(c: RetrievedContext): string[] {
  const texts = c.factPath ? [c.factPath] : [];
  for (const line of c.text.split('\n')) {
    for (const seg of sentenceSegmenter.segment(line)) if (seg.segment.trim()) texts.push(seg.segment.trim());
  }
  return texts;
}

export interface GroundOptions {
  /** The index's embedder: adds similarity of meaning to the word overlap. */
  embedder?: Embedder;
}

/**
 * Corrects the citations of a generated answer and says, per sentence, how well the sources support it.
 * A mark to a number no context has is removed like one to a source that does not support its sentence.
 */
export async function groundAnswer(text: string, contexts: RetrievedContext[], opts: GroundOptions = {}): Promise<GroundedAnswer> {
  const spans = sentenceSpans(text);
  const sentences = spans.map((s) => text.slice(s.start, s.end));
  const claims = sentences.map(contentTokens);

  // Units: every sentence of every source, and each pair of adjacent ones (a claim may join them), with the
  // note's title words ("She was born…" in the note named for her).
  const units: Unit[] = [];
  const sentenceTexts: string[] = [];
  const pairs: [number, number][] = [];
  contexts.forEach((c, i) => {
    const title = contentTokens(c.docTitle || '');
    const own = sourceSentences(c);
    own.forEach((s, j) => {
      units.push({ source: i + 1, tokens: new Set([...contentTokens(s), ...title]) });
      sentenceTexts.push(s);
      if (j > 0) pairs.push([units.length - 2, units.length - 1]);
    });
  });
  const singles = units.length;
  for (const [a, b] of pairs) units.push({ source: units[a]!.source, tokens: new Set([...units[a]!.tokens, ...units[b]!.tokens]) });

  // IDF over the source sentences: a word no source has weighs most, so an invented name lowers support.
  const df = new Map<string, number>();
  for (let u = 0; u < singles; u++) for (const t of units[u]!.tokens) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + (singles + 1) / (1 + (df.get(t) ?? 0)));

  let claimVecs: Float32Array[] | null = null;
  // An embedder that fails (a server gone) leaves the word overlap to decide: the answer is not lost over it.
  const vecs = opts.embedder && singles > 0 && claims.some((c) => c.length) ? await opts.embedder.embed([...sentences.map((s) => s.replace(CITATION, ' ')), ...sentenceTexts]).catch(() => null) : null;
  if (vecs) {
    claimVecs = vecs.slice(0, sentences.length);
    for (let u = 0; u < singles; u++) units[u]!.vec = vecs[sentences.length + u];
    pairs.forEach(([a, b], p) => {
      const va = units[a]!.vec!;
      const vb = units[b]!.vec!;
      units[singles + p]!.vec = normalize(va.map((x, d) => x + vb[d]!));
    });
  }

  const support: SentenceSupport[] = [];
  let out = '';
  let last = 0;
  spans.forEach((span, i) => {
    const sentence = sentences[i]!;
    const cited = citedIn(sentence, contexts.length);
    const tokens = [...new Set(claims[i]!)];
    const bySource = new Map<number, number>();
    if (tokens.length) {
      const total = tokens.reduce((s, t) => s + idf(t), 0);
      const sims = claimVecs ? units.map((u) => (u.vec ? dot(claimVecs![i]!, u.vec) : 0)) : null;
      // The claim's typical similarity to any source sentence is its floor: embedders differ in how
      // similar unrelated texts look (GloVe averages sit high), so only the rise above it counts.
      const floor = sims ? median(sims) : 0;
      units.forEach((u, k) => {
        const lexical = tokens.reduce((s, t) => s + (u.tokens.has(t) ? idf(t) : 0), 0) / total;
        const meaning = sims ? Math.max(0, Math.min(1, (sims[k]! - floor) / Math.max(1e-6, 1 - floor))) : 0;
        const score = sims ? (1 - EMBEDDING_WEIGHT) * lexical + EMBEDDING_WEIGHT * meaning : lexical;
        bySource.set(u.source, Math.max(bySource.get(u.source) ?? 0, score));
      });
    }
    const ranked = [...bySource.entries()].sort((a, b) => b[1] - a[1]);
    const best = ranked[0]?.[1] ?? 0;
    // A lead-in ("Here is what your notes say:") introduces claims and makes none.
    const claim = tokens.length > 0 && !/[:：]\s*$/.test(sentence);
    const supported = !claim || best >= SUPPORTED;
    const kept = cited.filter((n) => (bySource.get(n) ?? 0) >= KEEP_CITED);
    // A supported claim none of whose kept marks supports it fully gets its best source (two when close).
    const needsSource = claim && supported && !kept.some((n) => (bySource.get(n) ?? 0) >= SUPPORTED);
    const added = needsSource ? ranked.filter(([n, s]) => s >= NEAR_BEST * best && !kept.includes(n)).slice(0, 2).map(([n]) => n) : [];
    const citations = [...kept, ...added];
    const rewritten = citations.length || /\[\d/.test(sentence) ? withCitations(sentence, citations) : sentence;
    out += text.slice(last, span.start);
    support.push({ sentence: rewritten, start: out.length, end: out.length + rewritten.length, claim, citations, cited, score: round(best), supported });
    out += rewritten;
    last = span.end;
  });
  out += text.slice(last);
  const citations: number[] = [];
  for (const s of support) for (const n of s.citations) if (!citations.includes(n)) citations.push(n);
  return { text: out, citations, support };
}

/** The sentence with its marks replaced by `citations`, set before its closing punctuation as the prompt's examples do. */
function withCitations(sentence: string, citations: number[]): string {
  const bare = sentence.replace(CITATION, '').replace(/ {2,}/g, ' ');
  const tail = TRAILING_PUNCT.exec(bare)?.[0] ?? '';
  const body = bare.slice(0, bare.length - tail.length).trimEnd();
  const marks = citations.map((n) => `[${n}]`).join('');
  // Chinese sets no space before a mark, as it sets none between words.
  const gap = /\p{Script=Han}$/u.test(body) ? '' : ' ';
  return `${body}${marks ? `${gap}${marks}` : ''}${tail.trim()}`;
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
