// loci's parameters, the defaults every dev set was measured with, and the per-corpus weights derived
// from them (how far titles are names, how far notes refer to each other).
import type { ProximityParams } from './zh/han-proximity.js';
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
   * Share of the character-bigram BM25 in the lexical score of BM25's passages (zh/han-bigrams.ts; questions
   * with Han text only): a second reading that does not depend on how jieba cut the question and the text.
   */
  bigramShare: number;
  /**
   * Chinese questions: neighbouring question words, one a single character, are searched as one word where
   * the index holds it (zh/han-recut.ts: 他 / 信 → 他信), so a name the question's cut split is found by BM25 itself.
   */
  joinHanWords: boolean;
  /**
   * Chinese questions: share of the first passage's score each of BM25's passages gains per unit of
   * its similarity to that passage (zh/same-story.ts), so other reports of the story asked about rise.
   */
  sameStory: number;
  /** Chinese questions: how BM25's passages gain from the question's words standing close (zh/han-proximity.ts). */
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

/** The defaults; the measurements behind each are in docs/tuning.md ("loci parameters"). */
export const DEFAULT_LOCI_PARAMS: LociParams = {
  depth: 50,
  // A sharper fusion than the usual 60: agreement near the top matters most.
  rrfK: 10,
  // BM25 counts double and the title ranking not at all (titles count where the question names them, and as bridges).
  wBm25: 2,
  // Scaled by the embedder's trust on this corpus (embedder-quality.ts) and its agreement with BM25: at most as much as BM25.
  wDense: 2,
  // Chinese: half the lexical score from the character-bigram reading.
  bigramShare: 0.5,
  // Not a weight: a word the notes hold is searched as the notes hold it.
  joinHanWords: true,
  // Chinese: how far a passage is lifted by its likeness to the first one.
  sameStory: 0.9,
  // Chinese: Tao & Zhai's MinDist and the best 40-character window, the middle of a plateau.
  proximity: { minDistance: 0.07, window: 0.2, windowChars: 40 },
  wTitle: 0,
  wTitleExact: 2,
  bridgeParents: 3,
  wBridge: 0.5,
  // Where titles name things, the note the question names vouches for the notes its text names.
  wAnchorBridge: 1.5,
  namesFrom: 0.35,
  namesFull: 0.65,
  // A hub that names twenty notes vouches for each less than a passage that names two.
  bridgeSplitPower: 0.5,
  maxTitleWords: MAX_TITLE_WORDS,
  specificityPower: 1,
  wPpr: 1,
  ppr: DEFAULT_PPR_PARAMS,
  adaptive: true,
  // Low, so a notes folder where one note in ten links another keeps the walk in full.
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
