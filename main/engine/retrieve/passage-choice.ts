// Which of a note's passages loci shows, and which of BM25's passages count as "near the top" for the
// further passages (note-passages.ts). BM25 finds the notes well, but inside a long guide its length
// normalisation and its single field favour the wrong passage: a one-line code block or a heading-only
// chunk whose heading repeats the question's words ("TLS (https) › Cloud VM with Caddy": a reverse-proxy
// line) outranks the paragraph under it that explains. So BM25's candidate passages are scored again,
// BM25F-style, with the heading path (and title) as a field of its own at a lower weight than the text,
// and with no length normalisation: a passage counts by the distinct question words its text holds and
// how often, not by how short it is. The passages stay BM25's own (the same chunks, the same set); only
// their order changes, and with it which passage stands for each note.
import type { Scored } from '../embed/vector-matrix.js';
import type { RetrievalContext } from './retriever.js';
import type { QueryAnalysis } from './query.js';
import { chunkDocumentFrequencies, chunkRows } from '../store/retrieval.js';
import { passageCounts } from '../store/passage-terms.js';
import { segmentWords } from '../text/segment.js';
import { hasHan } from '../text/lang.js';
import { bm25Idf } from './bm25.js';
import stem from 'wink-eng-lite-web-model/dist/porter-stemmer.js';

export interface PassageChoiceParams {
  /** BM25's saturation of a term's count in a passage. */
  k1: number;
  /** Length normalisation (BM25's b); 0: none. */
  b: number;
  /** A question word only in the heading path or title counts this share of one found once in the text. */
  headingWeight: number;
  /**
   * Passage choice orders BM25's passages only in a corpus whose notes hold at least this many passages
   * on average. Where a note is one passage (Wikipedia paragraphs, news articles: 1.0–1.04 on the dev
   * sets) BM25's length normalisation is the note's own and passage and note rankings are one; in long
   * guides (SilverBullet 8.1, Foam 10.7) a passage's length says little of the note's.
   */
  minPassagesPerNote: number;
  /** Share of BM25's weight in loci's note ranking left to BM25's own note order (loci/lexical.ts). */
  bm25OrderShare: number;
  /**
   * For which notes rank (not which of a note's passages is shown): a question word found in a code
   * block counts this share of one found in prose (noteRankingPassages).
   */
  codeWeight: number;
}

// Chosen on both documentation dev sets at once (docs/tuning.md lists what else was tried): the notes stay
// mostly in BM25's order, since ranking them by this alone cost the extractive answer on SilverBullet.
export const DEFAULT_PASSAGE_CHOICE: PassageChoiceParams = { k1: 1.2, b: 0, headingWeight: 0.3, minPassagesPerNote: 2, bm25OrderShare: 0.25, codeWeight: 0.3 };

const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** A word boundary inside an identifier: lower → upper ("linkReference"), or an acronym's end ("HTMLParser"). */
const CASE_CHANGE = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/**
 * A word as matched, lowercased: itself, and where it is a camelCase identifier, also its parts. Notes
 * about software name settings, commands and functions in camelCase (`foam.edit.linkReferenceDefinitions`,
 * `withExtensions`, `index.contentPages()`), while a question asks in words ("link reference definitions
 * that include file extensions"); the parts are those words. A word with no case change inside (prose,
 * Wikipedia, news) is left as it is. The whole identifier stays, so a question that writes it matches it.
 */
export function identifierWords(word: string): string[] {
  const lower = word.toLowerCase();
  const parts = word.split(CASE_CHANGE);
  return parts.length > 1 ? [lower, ...parts.map((x) => x.toLowerCase())] : [lower];
}

/**
 * Lowercase word stems as a passage is matched: words split where FTS5's tokenizer splits them (text
 * with Han characters is cut by the index's own segmenter first), and camelCase identifiers also into
 * their words (identifierWords).
 */
function stems(text: string, memo: Map<string, string>): string[] {
  const words = hasHan(text) ? segmentWords(text).flatMap((w) => w.split(NOT_WORD)) : text.normalize('NFKC').split(NOT_WORD).flatMap(identifierWords);
  const out: string[] = [];
  for (const part of words) {
    if (!part) continue;
    let s = memo.get(part);
    if (s === undefined) memo.set(part, (s = stem(part)));
    out.push(s);
  }
  return out;
}

interface PassageTerms {
  /** Stem → count in the passage's text. */
  tf: Map<string, number>;
  /** Stems of the note's title and the passage's heading path. */
  heading: Set<string>;
  length: number;
  /** A code block (the chunker's mark). */
  code: boolean;
}

/** What passage choice reads of the index, built lazily and kept per index generation. */
interface ChoiceCache {
  passages: number;
  notes: number;
  idf: Map<string, number>;
  terms: Map<number, PassageTerms>;
  stems: Map<string, string>;
}

function choiceCache(ctx: RetrievalContext): ChoiceCache {
  return ctx.cache.derived('passage-choice', () => ({ ...passageCounts(ctx.db), idf: new Map(), terms: new Map(), stems: new Map() }));
}

/** Whether the corpus's notes hold p.minPassagesPerNote passages on average (long guides, not paragraphs or articles). */
export function severalPassagesPerNote(ctx: RetrievalContext, p: Pick<PassageChoiceParams, 'minPassagesPerNote'> = DEFAULT_PASSAGE_CHOICE): boolean {
  const cache = choiceCache(ctx);
  return cache.notes > 0 && cache.passages >= p.minPassagesPerNote * cache.notes;
}

/** Inverse passage frequency of a term, from the chunk index BM25 searches. */
function idfOf(ctx: RetrievalContext, cache: ChoiceCache, term: string): number {
  let v = cache.idf.get(term);
  if (v === undefined) {
    const df = chunkDocumentFrequencies(ctx.db, [term])[0]!;
    v = df ? bm25Idf(cache.passages, df) : 0;
    cache.idf.set(term, v);
  }
  return v;
}

const MAX_CACHED_PASSAGES = 5000;

function passageTerms(ctx: RetrievalContext, cache: ChoiceCache, ids: number[]): Map<number, PassageTerms> {
  // Kept for passages seen again by later questions, within a bound (a few thousand small maps).
  if (cache.terms.size > MAX_CACHED_PASSAGES) cache.terms.clear();
  const missing = ids.filter((id) => !cache.terms.has(id));
  for (const r of missing.length ? chunkRows(ctx.db, missing) : []) {
    const words = stems(r.text, cache.stems);
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    cache.terms.set(r.id, { tf, heading: new Set(stems([r.title, ...(JSON.parse(r.heading_path) as string[])].join(' '), cache.stems)), length: words.length, code: r.is_code === 1 });
  }
  return cache.terms;
}

/** BM25's passages in two passage-choice orders (scores are the new ones). */
export interface PassageOrders {
  /** Which passage stands for each note, and its further passages. */
  shown: Scored[];
  /**
   * Which notes rank (loci/lexical.ts): as `shown`, but a question word found in a code block counts
   * p.codeWeight of one in prose, as words only in the heading count less. A long code listing (a plug's
   * implementation, a script) holds the question's everyday words as identifiers — `run`, `id`, `group`,
   * `path`, `sub` — and outranked the note whose prose answers: on the SilverBullet set a Mermaid
   * renderer's source for "run as a particular user and group id", a Lua script's `string.sub(child, …)`
   * for "serve under a sub-path". Which passage is shown is not changed: there a code block is often the
   * answer (the setting's JSON line), and lowering it there cost Foam's shown answer (65.7 → 65.1).
   * The same array as `shown` when code counts in full.
   */
  noteOrder: Scored[];
}

/**
 * BM25's passages in passage-choice order, scored once for both orders. When no note has two of them,
 * no note has a choice to make and both are the ranking as it is (news, Wikipedia paragraphs: one
 * passage per note).
 */
export function choosePassages(ctx: RetrievalContext, qa: QueryAnalysis, ranking: Scored[], docOf: Map<number, number>, p: PassageChoiceParams = DEFAULT_PASSAGE_CHOICE): PassageOrders {
  const cache = choiceCache(ctx);
  if (!severalPassagesPerNote(ctx, p)) return { shown: ranking, noteOrder: ranking };
  const notes = new Set(ranking.map((s) => docOf.get(s.id)));
  if (notes.size === ranking.length) return { shown: ranking, noteOrder: ranking };
  const terms = [...new Set(qa.terms.flatMap((t) => stems(t, cache.stems)))];
  const idf = new Map(terms.map((t) => [t, idfOf(ctx, cache, t)]));
  const all = passageTerms(ctx, cache, ranking.map((s) => s.id));
  const passages = ranking.flatMap((s) => {
    const x = all.get(s.id);
    return x ? [{ id: s.id, ...x }] : [];
  });
  const avgLength = passages.reduce((a, x) => a + x.length, 0) / Math.max(1, passages.length) || 1;
  const headingOnly = (p.headingWeight * (p.k1 + 1)) / (1 + p.k1);
  const shown: Scored[] = [];
  const noteOrder: Scored[] = [];
  for (const x of passages) {
    let score = 0;
    let codeScore = 0;
    for (const t of terms) {
      const n = x.tf.get(t) ?? 0;
      const inText = n ? (n * (p.k1 + 1)) / (n + p.k1 * (1 - p.b + (p.b * x.length) / avgLength)) : 0;
      const heading = x.heading.has(t) ? headingOnly : 0;
      score += idf.get(t)! * Math.max(inText, heading);
      codeScore += idf.get(t)! * Math.max(x.code ? p.codeWeight * inText : inText, heading);
    }
    shown.push({ id: x.id, score });
    noteOrder.push({ id: x.id, score: codeScore });
  }
  const bm25Rank = new Map(ranking.map((s, i) => [s.id, i]));
  const byScore = (a: Scored, b: Scored) => b.score - a.score || bm25Rank.get(a.id)! - bm25Rank.get(b.id)!;
  shown.sort(byScore);
  return { shown, noteOrder: p.codeWeight === 1 ? shown : noteOrder.sort(byScore) };
}

/** The notes as ranked, each shown by its passage in `chosen` (the note's first there), else as it was. */
export function shownByChosen<T extends { docId: number; chunkId: number }>(ranked: T[], chosen: { docId: number; chunkId: number }[]): T[] {
  const shownBy = new Map(chosen.map((n) => [n.docId, n.chunkId]));
  return ranked.map((n) => ({ ...n, chunkId: shownBy.get(n.docId) ?? n.chunkId }));
}
