// loci's parameters, the defaults every dev set was measured with, and the per-corpus weights derived
// from them (how far titles are names, how far notes refer to each other).
import type { ProximityParams } from './han-proximity.js';
import { DEFAULT_PPR_PARAMS, type PprParams } from './ppr.js';
import { DEFAULT_PASSAGE_PARAMS, type PassageParams } from './note-passages.js';
import { DEFAULT_PASSAGE_CHOICE, type PassageChoiceParams } from './passage-choice.js';
import { MAX_TITLE_WORDS } from '../graph/walk/title-mentions.js';

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

/** How far the corpus's titles are names, 0–1, from the share of title mentions written as names (0.5: no case to tell). */
export function namesWeightOf(share: number | null, p: Pick<LociParams, 'namesFrom' | 'namesFull'>): number {
  if (share === null) return 0.5;
  return Math.min(1, Math.max(0, (share - p.namesFrom) / (p.namesFull - p.namesFrom)));
}

/**
 * The walk's weight on this corpus, from 0 to 1: the share of notes that name or link another note,
 * relative to p.fullReferencing. The walk is seeded by BM25, so its top always agrees with BM25's and
 * agreement says nothing of it; what it adds is the path from note to note. Where notes do not refer to
 * each other (news titled by an id) its only paths are shared entity mentions — words BM25 has already
 * weighed — and it reshuffled BM25's top by noise: CRUD 10k 1/2/3-doc 49.9/52.7/51.3 with the walk at
 * full weight against BM25's 50.3/52.3/52.2.
 */
export function walkWeightOf(referencing: number, p: Pick<LociParams, 'adaptive' | 'fullReferencing'>): number {
  if (!p.adaptive) return 1;
  return Math.min(1, referencing / p.fullReferencing);
}
