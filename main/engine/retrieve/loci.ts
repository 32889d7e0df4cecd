// `loci`, the default method: lexical (BM25 over chunks), title evidence and personalized PageRank over
// the entity–chunk–note graph (ppr.ts, seeded by BM25 + dense) fused per document, then the second hop
// through bridges — a top document that mentions another document's title (or links to it) pulls that
// document up (HippoRAG's observation that the bridge entity is the strongest path to the second hop).
// The combination was chosen by measurement on every dev set at once (HotpotQA train-100 and dev,
// MuSiQue, 2Wiki, Chinese news with id titles), never below BM25 on any.
import type { RetrievedContext } from '../types.js';
import type { Scored } from '../embed/vector-matrix.js';
import type { RetrievalContext, RetrievalResult, Retriever } from './retriever.js';
import { chunkContexts } from './contexts.js';
import { analyseQuery, bm25Ranking, searchedWords } from './query.js';
import { bm25Idf } from './bm25.js';
import { DEFAULT_PASSAGE_PARAMS, nearTopPassages, notePassages, type PassageParams } from './note-passages.js';
import { choosePassages, DEFAULT_PASSAGE_CHOICE, shownByChosen, type PassageChoiceParams } from './passage-choice.js';
import { notesInSpans } from './passage-spans.js';
import { chunkDocuments, denseAgreementWeight, firstStageNotes, notesOf } from './rank-fusion.js';
import { withBigrams } from './han-bigrams.js';
import { titleNameShare } from './title-names.js';
import { embedderQuality, type EmbedderQuality } from './embedder-quality.js';
import { withSameStory } from './same-story.js';
import { withJoinedHanWords } from './han-recut.js';
import { withProximity, type ProximityParams } from './han-proximity.js';
import { DEFAULT_PPR_PARAMS, entityGraph, pprRank, type PprParams } from './ppr.js';
import { indexedTitles } from '../store/retrieval.js';
import { bestChunks } from './hig/retriever.js';
import { segmentWords } from '../text/segment.js';
import { isStopWord } from '../text/stopwords.js';
import { MAX_TITLE_WORDS, matchWord, referencingShare, specificEnough, titleSpecificity } from '../graph/walk/title-mentions.js';

export interface LociParams {
  /** Chunks taken from each first-stage ranking. */
  depth: number;
  rrfK: number;
  wBm25: number;
  wDense: number;
  /**
   * Share of the character-bigram BM25 in the lexical score of BM25's passages (han-bigrams.ts; questions
   * with Han text only): a second reading that does not depend on how jieba cut the question and the text.
   */
  bigramShare: number;
  /**
   * Chinese questions: neighbouring question words, one a single character, are searched as one word where
   * the index holds it (han-recut.ts: 他 / 信 → 他信), so a name the question's cut split is found by BM25 itself.
   */
  joinHanWords: boolean;
  /**
   * Chinese questions: share of the first passage's score each of BM25's passages gains per unit of
   * its similarity to that passage (same-story.ts), so other reports of the story asked about rise.
   */
  sameStory: number;
  /** Chinese questions: how BM25's passages gain from the question's words standing close (han-proximity.ts). */
  proximity: ProximityParams;
  /** Weight of the title ranking (title words found in the question, BM25-weighted). */
  wTitle: number;
  /** Bonus (in units of an RRF rank-1 score) for a document whose full title occurs in the question. */
  wTitleExact: number;
  /** Top documents whose text is scanned for other documents' titles. */
  bridgeParents: number;
  /** A bridged document gains wBridge × its parent's score (split as below). */
  wBridge: number;
  /**
   * The same for a parent the question names by title (the first hop the question states), where the
   * corpus's titles name things (title-names.ts); it falls to wBridge where they are topics.
   */
  wAnchorBridge: number;
  /** Share of title mentions written as names from which titles count as names, and at which fully. */
  namesFrom: number;
  namesFull: number;
  /**
   * A parent's bridge is divided by (the number of notes it mentions) to this power, as a walk splits a
   * node's mass over its edges: a hub page that names twenty notes vouches for each less than a passage
   * that names two.
   */
  bridgeSplitPower: number;
  /** Longest title, in words, looked for in the question (the graph finds titles in the notes' text). */
  maxTitleWords: number;
  /** Title evidence (in the question, or bridging) is scaled by the title's specificity to this power. */
  specificityPower: number;
  /** Weight of the personalized-PageRank ranking over the entity–chunk–note graph (0: not run). */
  wPpr: number;
  ppr: PprParams;
  /**
   * Weight dense by how far its top agrees with BM25's on this question (rank-fusion.ts), so an embedder
   * that does not know the corpus's language or words counts for less, with no per-corpus weight; and
   * the walk by how far the corpus's notes refer to each other (walkWeightOf).
   */
  adaptive: boolean;
  /** Share of notes naming or linking another note at which the walk counts fully (walkWeightOf). */
  fullReferencing: number;
  /** Which further passages of a ranked note are shown beside its best one (note-passages.ts). */
  passages: PassageParams;
  /** How BM25's passages are ordered before they stand for notes (passage-choice.ts); null: BM25's own order. */
  passageChoice: PassageChoiceParams | null;
}

export const DEFAULT_LOCI_PARAMS: LociParams = {
  depth: 50,
  // A sharper fusion than the usual 60: with three rankings and bridges, agreement near the top matters most.
  rrfK: 10,
  // BM25 counts double and the title ranking not at all: with either as 1 the documentation folders
  // (titles like "Tags", "Daily Notes") fell below BM25, while titles still count where they name
  // things — in the question and as bridges, scaled by their specificity (bench, all dev sets).
  wBm25: 2,
  // Dense always enters through the walk's seeds (ppr); fused as a ranking of its own it counts by the
  // embedder's quality on this corpus (embedder-quality.ts: 0 for the built-in GloVe, a bag of words, and
  // for an embedder that does not know the corpus's language) times its agreement with BM25 on this
  // question, so at most as much as BM25. With MiniLM and e5, 1–3 gained on MuSiQue, 2Wiki, SilverBullet
  // and HotpotQA train-100 (MuSiQue most at 3); the extractive answer on Foam fell with e5 as the weight
  // rose (66.5 before, 65.6 / 65.0 / 63.9 at 1 / 2 / 3, BM25 64.6), and at 3 MiniLM's answer words in the
  // top 5 on Foam fell below BM25's (bench, all dev sets, both embedders).
  wDense: 2,
  // Half and half: on the 10k untitled news pool (the only dev sets in Chinese) 0.5 and 0.7 gave
  // 52.5/57.6/53.6 and 52.6/58.1/53.4 against BM25's 50.3/52.3/52.2, a separate RRF ranking 51.3/57.3/53.4.
  bigramShare: 0.5,
  // Not a weight: a word the notes hold is searched as the notes hold it. On the 10k untitled news pool it
  // changed one question's ranking (1-doc 55.2 -> 55.4; 2- and 3-doc and every other set the same).
  joinHanWords: true,
  // On the 10k untitled news pool (the only dev sets in Chinese; other questions are unchanged), recall@5
  // 1/2/3-doc went from 52.5/57.6/53.6 to 53.0/60.0/55.0 (BM25 50.3/52.3/52.2). In an offline replay
  // 0.25 / 0.5 / 1 gave 52.5/58.7/54.2, 53.0/60.2/54.9 and 52.2/60.5/56.1, and lending from the first
  // two or three passages did no better (1-doc 51.5–52.7).
  // With term proximity the lift counts more (0.5 → 0.9): the passage it lends from is more often the
  // one the question is about. Offline replay of the 10k news pool, recall@5 1/2/3-doc: lift 0.5 alone
  // 53.0/60.0/55.0, lift 0.75 alone 53.0/60.3/56.5; proximity (MinDist 0.05, 60 characters) with 0.5
  // 53.2/59.7/56.1; the proximity below with 0.9, 55.2/60.2/57.4.
  sameStory: 0.9,
  // Tao & Zhai's MinDist and the best 40-character window, chosen in the middle of a plateau of an offline
  // replay on the same pool: MinDist 0.07 / 0.1, window 30 / 40 / 50 characters, lift 0.9 / 1.0 gave
  // 1-doc 53.8–55.2, 2-doc 59.9–60.6, 3-doc 57.0–58.2 (window weight 0.2; 0.15 and 0.3 alike; MinDist
  // 0.14 less on 1-doc, 53.0–54.7).
  // Smaller settings gained less on 1-doc (MinDist 0.04–0.05 with a 60-character window and the lift at
  // 0.75: 53.2–54.2). Query likelihood (Dirichlet), PL2, BM25's k1/b, weighting names, numbers and
  // places by jieba's tags, and the first sentence as a title did not help (within ±0.5, or lower).
  proximity: { minDistance: 0.07, window: 0.2, windowChars: 40 },
  wTitle: 0,
  wTitleExact: 2,
  bridgeParents: 3,
  wBridge: 0.5,
  // Where titles name things (Wikipedia: 72–97% of title mentions capitalised mid-sentence; the docs
  // folders 18–27%), the thing the question names vouches for the things its text names: docs/tuning.md.
  wAnchorBridge: 1.5,
  namesFrom: 0.35,
  namesFull: 0.65,
  // With stemmed BM25 (migration 5), documentation hubs ("Space Lua" naming twenty pages) bridged past
  // the note that answers: SilverBullet fell to 93.8 against BM25's 96.9. Split by √mentions it is level
  // with BM25 there, Foam gains (96.8 → 100) and HotpotQA train-100 keeps 93.0 (1: 92.5) — all dev sets, one run.
  bridgeSplitPower: 0.5,
  maxTitleWords: MAX_TITLE_WORDS,
  specificityPower: 1,
  wPpr: 1,
  ppr: DEFAULT_PPR_PARAMS,
  adaptive: true,
  // The dev sets lie far on either side: 20–98% of notes refer to another (Wikipedia sets, documentation
  // folders), 0.02% in the 10k untitled news pool. Any value between changes no dev set; this one is
  // set low so a notes folder where one note in ten links another keeps the walk in full.
  fullReferencing: 0.1,
  passages: DEFAULT_PASSAGE_PARAMS,
  passageChoice: DEFAULT_PASSAGE_CHOICE,
};

/**
 * The walk's weight on this corpus, from 0 to 1: the share of notes that name or link another note,
 * relative to p.fullReferencing. The walk is seeded by BM25, so its top always agrees with BM25's and
 * agreement says nothing of it; what it adds is the path from note to note. Where notes do not refer to
 * each other (news titled by an id) its only paths are shared entity mentions — words BM25 has already
 * weighed — and it reshuffled BM25's top by noise: CRUD 10k 1/2/3-doc 49.9/52.7/51.3 with the walk at
 * full weight against BM25's 50.3/52.3/52.2.
 */
/** How far the corpus's titles are names, 0–1, from the share of title mentions written as names (0.5: no case to tell). */
export function namesWeightOf(share: number | null, p: Pick<LociParams, 'namesFrom' | 'namesFull'>): number {
  if (share === null) return 0.5;
  return Math.min(1, Math.max(0, (share - p.namesFrom) / (p.namesFull - p.namesFrom)));
}

export function walkWeightOf(referencing: number, p: Pick<LociParams, 'adaptive' | 'fullReferencing'>): number {
  if (!p.adaptive) return 1;
  return Math.min(1, referencing / p.fullReferencing);
}

/** Below this weight the walk is not run at all (it could not move a rank, and costs a few ms). */
const MIN_WALK_WEIGHT = 0.01;

export interface LociDocument {
  docId: number;
  title: string;
  score: number;
  ranks: { bm25?: number; dense?: number; title?: number; ppr?: number };
  titleInQuestion: boolean;
  /** The documents whose text mentions this one's title (when it was reached as a bridge). */
  bridgedFrom: { docId: number; title: string; mention: string }[];
}

export interface LociExplanation {
  method: 'loci';
  params: LociParams;
  /** The weight each ranking was given for this question (after agreement and, for the walk, the corpus's references). */
  weights: { bm25: number; bigramShare: number; dense: number; title: number; ppr: number };
  /** Share of the corpus's notes that name or link another note (the walk's weight follows it). */
  referencingShare: number;
  /** Share of title mentions written as names (title-names.ts; null: no case to tell) and the anchor bridge weight it gave. */
  titleNameShare: number | null;
  anchorBridge: number;
  /** How far the embedder is trusted beside BM25 on this corpus (embedder-quality.ts); null when not estimated. */
  embedderTrust: EmbedderQuality | null;
  /** Chinese questions: words the question's cut split that were searched whole (han-recut.ts). */
  joinedWords: string[];
  documents: LociDocument[];
}

interface TitleIndex {
  titleOf: Map<number, string>;
  /** Title word → documents whose title has it. */
  postings: Map<string, number[]>;
  titleWords: Map<number, number>;
  docs: number;
  avgTitleWords: number;
}

function titleIndex(ctx: RetrievalContext): TitleIndex {
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

/** BM25 of the question's words against document titles alone (a short field: a match there says much). */
function titleRanking(t: TitleIndex, terms: string[]): Scored[] {
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

export function createLociRetriever(overrides: Partial<LociParams> = {}): Retriever {
  const p: LociParams = {
    ...DEFAULT_LOCI_PARAMS,
    ...overrides,
    ppr: { ...DEFAULT_LOCI_PARAMS.ppr, ...overrides.ppr },
    proximity: { ...DEFAULT_LOCI_PARAMS.proximity, ...overrides.proximity },
    passages: { ...DEFAULT_LOCI_PARAMS.passages, ...overrides.passages },
  };
  return async (ctx: RetrievalContext, question: string, k: number): Promise<RetrievalResult> => {
    // Chinese questions: words the question's cut split and the notes keep whole are searched whole (han-recut.ts).
    const analysed = await analyseQuery(ctx, question);
    const qa = p.joinHanWords ? withJoinedHanWords(ctx, analysed) : analysed;
    const titles = titleIndex(ctx);
    // Built once per index generation: which notes mention which titles, and how specific each title is.
    const mentions = entityGraph(ctx).titleMentions;
    const referencing = ctx.cache.derived('loci:referencing-share', () => referencingShare(mentions));
    const nameShare = ctx.cache.derived('loci:title-name-share', () => titleNameShare(ctx.db, mentions));
    const wAnchor = p.wBridge + (p.wAnchorBridge - p.wBridge) * namesWeightOf(nameShare, p);
    const docs = new Map<number, LociDocument>();
    const entry = (docId: number) => {
      let d = docs.get(docId);
      if (!d) {
        d = { docId, title: titles.titleOf.get(docId) ?? '', score: 0, ranks: {}, titleInQuestion: false, bridgedFrom: [] };
        docs.set(docId, d);
      }
      return d;
    };
    const rrf = (rank: number) => 1 / (p.rrfK + rank + 1);

    const first = firstStageNotes(ctx, qa, p.depth);
    const trust = p.adaptive && p.wDense ? await embedderQuality(ctx) : null;
    const wDense = trust ? p.wDense * trust.weight * first.wDense : p.wDense;
    const dense = wDense ? first.dense : [];
    const docOf = chunkDocuments(ctx);
    // BM25's passages in passage-choice order (passage-choice.ts): which passage stands for a note, and
    // so where the note ranks by BM25 (BM25's own order where no note has two passages).
    const bm25 = bm25Ranking(ctx, qa, p.depth);
    // Which notes rank reads code blocks at a lower weight than which passage shows a note does (passage-choice.ts).
    const { shown: passages, noteOrder } = p.passageChoice ? choosePassages(ctx, qa, bm25, docOf, p.passageChoice) : { shown: bm25, noteOrder: bm25 };
    // Where passage choice reordered them, BM25's own note order keeps a share of BM25's weight.
    const ownOrder = p.passageChoice && passages !== bm25 ? notesOf(docOf, bm25) : [];
    const ownShare = ownOrder.length ? p.passageChoice!.bm25OrderShare : 0;
    let lexical = p.wBm25 ? notesOf(docOf, noteOrder) : [];
    // Chinese questions: BM25's passages re-read by character bigrams (han-bigrams.ts), raised where the
    // question's words stand close (han-proximity.ts), then lifted by their likeness to the first
    // (same-story.ts), before they become notes.
    if (p.wBm25 && (p.bigramShare > 0 || p.sameStory > 0)) {
      const reread = p.bigramShare > 0 ? withBigrams(ctx, qa, noteOrder, p.bigramShare) : noteOrder;
      lexical = notesOf(docOf, withSameStory(ctx, qa, withProximity(ctx, qa, reread, p.proximity), p.sameStory));
    }
    if (noteOrder !== passages) lexical = shownByChosen(lexical, notesOf(docOf, passages));
    const byTitle = p.wTitle ? titleRanking(titles, searchedWords(qa.terms, qa.variants)).slice(0, p.depth) : [];
    const walkWeight = p.wPpr * walkWeightOf(referencing, p);
    const walk = walkWeight >= MIN_WALK_WEIGHT ? (await pprRank(ctx, qa, p.ppr)).documents.slice(0, p.depth) : [];

    // Each ranking beside BM25 counts by how far its top agrees with BM25's on this question.
    const lexicalIds = lexical.map((d) => d.docId);
    const agree = (ids: number[]) => (p.adaptive ? denseAgreementWeight(lexicalIds, ids) : 1);
    const weights = {
      bm25: p.wBm25,
      bigramShare: p.bigramShare,
      dense: wDense,
      title: p.wTitle * agree(byTitle.map((s) => s.id)),
      ppr: walk.length ? walkWeight * agree(walk.map((w) => w.docId)) : 0,
    };

    // The chunk a document is shown by: its best BM25 chunk, else its best dense chunk, else the walk's.
    const shownChunk = new Map<number, number>();
    lexical.forEach(({ docId, chunkId }, r) => {
      const d = entry(docId);
      d.ranks.bm25 = r + 1;
      d.score += weights.bm25 * (1 - ownShare) * rrf(r);
      shownChunk.set(docId, chunkId);
    });
    ownOrder.forEach(({ docId }, r) => (entry(docId).score += weights.bm25 * ownShare * rrf(r)));
    dense.forEach(({ docId, chunkId }, r) => {
      const d = entry(docId);
      d.ranks.dense = r + 1;
      d.score += weights.dense * rrf(r);
      if (!shownChunk.has(docId)) shownChunk.set(docId, chunkId);
    });
    byTitle.forEach((s, r) => {
      const d = entry(s.id);
      d.ranks.title = r + 1;
      d.score += weights.title * rrf(r);
    });
    walk.forEach((w, r) => {
      const d = entry(w.docId);
      d.ranks.ppr = r + 1;
      d.score += weights.ppr * rrf(r);
      if (!shownChunk.has(w.docId)) shownChunk.set(w.docId, w.chunkId);
    });
    if (p.wTitleExact) {
      for (const gram of namedTitles(qa.words.map(matchWord), p.maxTitleWords, (g) => mentions.byTitle.has(g) && specificEnough(g))) {
        for (const id of mentions.byTitle.get(gram)!) {
          const d = entry(id);
          if (d.titleInQuestion) continue;
          d.titleInQuestion = true;
          d.score += p.wTitleExact * titleSpecificity(mentions, d.title) ** p.specificityPower * rrf(0);
        }
      }
    }

    // Second hop: the best first-hop documents lend part of their score to the documents they mention.
    if (p.wBridge && p.bridgeParents > 0) {
      const top = [...docs.values()].sort((a, b) => b.score - a.score).slice(0, p.bridgeParents);
      const parents = [...new Set([...top, ...[...docs.values()].filter((d) => d.titleInQuestion && wAnchor > 0)])];
      const bonus = new Map<number, number>();
      for (const parent of parents) {
        const w = parent.titleInQuestion ? wAnchor : p.wBridge;
        const mentioned = mentions.byDoc.get(parent.docId) ?? [];
        const split = mentioned.length ** p.bridgeSplitPower;
        for (const { docId: target, key } of mentioned) {
          const d = entry(target);
          d.bridgedFrom.push({ docId: parent.docId, title: parent.title, mention: key });
          const b = (w * titleSpecificity(mentions, d.title) ** p.specificityPower * parent.score) / split;
          bonus.set(target, Math.max(bonus.get(target) ?? 0, b));
        }
      }
      for (const [target, b] of bonus) docs.get(target)!.score += b;
    }

    const ranked = [...docs.values()].sort((a, b) => b.score - a.score || a.docId - b.docId).slice(0, k);
    const unshown = ranked.filter((d) => !shownChunk.has(d.docId)).map((d) => d.docId);
    const chunkOf = new Map([...bestChunks(ctx, qa.embedding, unshown), ...shownChunk]);
    const shown = ranked.flatMap((d) => {
      const chunkId = chunkOf.get(d.docId);
      return chunkId === undefined ? [] : [{ docId: d.docId, score: d.score, chunkId }];
    });
    const nearTop = nearTopPassages(passages, bm25, p.passages);
    // Passages are shown in their sections' spans only where passage choice is at work (notes of several
    // passages; elsewhere a span is its passage).
    const contexts: RetrievedContext[] = passages === bm25 ? chunkContexts(ctx.db, notePassages(shown, nearTop, docOf, k)) : notesInSpans(ctx.db, shown, nearTop, docOf, k);
    const explanation: LociExplanation = { method: 'loci', params: p, weights, referencingShare: referencing, titleNameShare: nameShare, anchorBridge: wAnchor, embedderTrust: trust, joinedWords: qa.terms.filter((t) => !analysed.terms.includes(t)), documents: ranked };
    return { contexts, explanation, query: qa };
  };
}

export const lociRetriever: Retriever = createLociRetriever();

/** `--explain` for loci: each document's ranks in the three first-stage rankings, title evidence and bridges. */
export function formatLociExplanation(x: LociExplanation): string {
  const w = x.weights;
  const out = [
    `loci (ranks: bm25 / dense / title / ppr, weighted ${w.bm25.toFixed(2)} / ${w.dense.toFixed(2)} / ${w.title.toFixed(2)} / ${w.ppr.toFixed(2)}; ` +
      `BM25 re-read by character bigrams at ${w.bigramShare.toFixed(2)}, by the question words' proximity at ${x.params.proximity.minDistance.toFixed(2)} / ${x.params.proximity.window.toFixed(2)} ` +
      `and lifted by likeness to its first passage at ${x.params.sameStory.toFixed(2)} for Chinese questions; ` +
      `${(100 * x.referencingShare).toFixed(0)}% of notes name or link another; ` +
      `${x.titleNameShare === null ? 'no case to tell whether titles are names' : `${(100 * x.titleNameShare).toFixed(0)}% of title mentions written as names`}, so a note the question names lends ${x.anchorBridge.toFixed(2)} of its score to the notes it names; ` +
      `TQ = title in the question)`,
  ];
  const t = x.embedderTrust;
  if (t) {
    const coverage = t.coverage === null ? 'not measured (a bag of words)' : t.coverage.toFixed(2);
    out.push(`embedder trusted at ${t.weight.toFixed(2)} on this corpus (word-order sensitivity ${t.orderSensitivity.toFixed(2)}, coverage ${coverage}, ${t.probes} probes)`);
  }
  if (x.joinedWords.length) out.push(`searched whole, though the question's cut split them: ${x.joinedWords.join(', ')}`);
  for (const d of x.documents) {
    const r = (n?: number) => (n === undefined ? '–' : String(n));
    const bridges = d.bridgedFrom.map((b) => `“${b.title}” mentions “${b.mention}”`).join('; ');
    out.push(`  ${d.score.toFixed(4)}  ${d.title}  [${r(d.ranks.bm25)} / ${r(d.ranks.dense)} / ${r(d.ranks.title)} / ${r(d.ranks.ppr)}${d.titleInQuestion ? ' / TQ' : ''}]${bridges ? `  bridge: ${bridges}` : ''}`);
  }
  return out.join('\n');
}
