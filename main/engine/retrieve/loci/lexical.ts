// The lexical ranking of notes: BM25's passages in passage-choice order (which passage stands for a
// note), for Chinese questions re-read by character bigrams, proximity and likeness to the first story.
import type { RetrievalContext } from '../retriever.js';
import type { QueryAnalysis } from '../query.js';
import type { LociParams } from '../loci-params.js';
import type { Scored } from '../../embed/vector-matrix.js';
import { bm25Ranking } from '../query.js';
import { choosePassages, shownByChosen } from '../passage-choice.js';
import { chunkDocuments, notesOf } from '../rank-fusion.js';
import { withBigrams } from '../zh/han-bigrams.js';
import { withProximity } from '../zh/han-proximity.js';
import { withSameStory } from '../zh/same-story.js';

export interface LexicalRanking {
  /** BM25's passages as BM25 ranks them. */
  bm25: Scored[];
  /** The passages shown for notes (passage choice; BM25's own where it is off). */
  passages: Scored[];
  /** Notes in lexical order, each with the passage it is shown by. */
  notes: { docId: number; chunkId: number }[];
  /** BM25's own note order where passage choice reordered it, and the share of BM25's weight it keeps. */
  ownOrder: { docId: number; chunkId: number }[];
  ownShare: number;
}

export function lexicalRanking(ctx: RetrievalContext, qa: QueryAnalysis, p: LociParams): LexicalRanking {
  const docOf = chunkDocuments(ctx);
  const bm25 = bm25Ranking(ctx, qa, p.depth);
  // Which notes rank reads code blocks at a lower weight than which passage shows a note does (passage-choice.ts).
  const { shown: passages, noteOrder } = p.passageChoice ? choosePassages(ctx, qa, bm25, docOf, p.passageChoice) : { shown: bm25, noteOrder: bm25 };
  const ownOrder = p.passageChoice && passages !== bm25 ? notesOf(docOf, bm25) : [];
  const ownShare = ownOrder.length ? p.passageChoice!.bm25OrderShare : 0;
  let notes = p.wBm25 ? notesOf(docOf, noteOrder) : [];
  if (p.wBm25 && (p.bigramShare > 0 || p.sameStory > 0)) {
    const reread = p.bigramShare > 0 ? withBigrams(ctx, qa, noteOrder, p.bigramShare) : noteOrder;
    notes = notesOf(docOf, withSameStory(ctx, qa, withProximity(ctx, qa, reread, p.proximity), p.sameStory));
  }
  if (noteOrder !== passages) notes = shownByChosen(notes, notesOf(docOf, passages));
  return { bm25, passages, notes, ownOrder, ownShare };
}
