// Notes ranked by the fusion of BM25 and dense over their chunks (a note ranks where its best chunk
// does in each list): the lexical+dense entry point hig's document level, pgr's seed topics and ppr's
// seeds start from, instead of dense similarity alone (a weak embedder alone misses what the words find).
import type { Scored } from '../embed/vector-matrix.js';
import type { RetrievalContext } from './retriever.js';
import type { QueryAnalysis } from './query.js';
import { bm25Ranking, denseRanking } from './query.js';
import { allChunkDocuments } from '../store/retrieval.js';
import { RRF_K } from './hybrid.js';

export interface FusedDocument {
  docId: number;
  score: number;
  /** The note's best chunk in either ranking. */
  chunkId: number;
}

/** Top documents compared when judging how far the dense ranking agrees with BM25. */
export const AGREEMENT_DEPTH = 10;
/** Overlap with BM25's top at which dense counts fully (HotpotQA, MuSiQue, 2Wiki: 0.3–0.8 with GloVe; Chinese news: ~0.1). */
export const FULL_AGREEMENT = 0.3;
/** Dense never counts for nothing: it finds what the words miss. */
export const MIN_DENSE_WEIGHT = 0.2;

/**
 * The weight of the dense ranking for this question: its overlap with BM25's top documents relative to
 * FULL_AGREEMENT, capped at 1. An embedder that does not know the corpus's language or vocabulary
 * ranks documents near the top that BM25 never sees, and then counts for less.
 */
export function denseAgreementWeight(bm25Docs: number[], denseDocs: number[], depth = AGREEMENT_DEPTH): number {
  const top = new Set(bm25Docs.slice(0, depth));
  if (top.size === 0) return 1;
  const overlap = denseDocs.slice(0, depth).filter((x) => top.has(x)).length / depth;
  return Math.max(MIN_DENSE_WEIGHT, Math.min(1, overlap / FULL_AGREEMENT));
}

export interface NoteHit {
  docId: number;
  chunkId: number;
}

/** Chunk ranking → note ranking (a note ranks where its best chunk does), with that chunk. */
export function notesOf(docOf: Map<number, number>, chunks: { id: number }[]): NoteHit[] {
  const seen = new Set<number>();
  const out: NoteHit[] = [];
  for (const c of chunks) {
    const d = docOf.get(c.id);
    if (d === undefined || seen.has(d)) continue;
    seen.add(d);
    out.push({ docId: d, chunkId: c.id });
  }
  return out;
}

/** The note of every indexed chunk, held per index generation (one lookup table for every method). */
export function chunkDocuments(ctx: RetrievalContext): Map<number, number> {
  return ctx.cache.derived('chunk-documents', () => allChunkDocuments(ctx.db));
}

/** The two first-stage rankings at note level, and the dense weight for this question. */
export function firstStageNotes(ctx: RetrievalContext, qa: QueryAnalysis, depth: number): { lexical: NoteHit[]; dense: NoteHit[]; wDense: number } {
  const b = bm25Ranking(ctx, qa, depth);
  const d = denseRanking(ctx, qa, depth);
  const docOf = chunkDocuments(ctx);
  const lexical = notesOf(docOf, b);
  const dense = notesOf(docOf, d);
  const wDense = denseAgreementWeight(
    lexical.map((x) => x.docId),
    dense.map((x) => x.docId),
  );
  return { lexical, dense, wDense };
}

/**
 * Notes in the order of their best chunk in the RRF of the BM25 and dense chunk rankings, dense weighted
 * by its agreement with BM25 on this question: hybrid's fusion, at hybrid's grain, with the weak-embedder
 * guard. Fused at note level instead (each list first collapsed to notes, a note ranking where its best
 * chunk does), a note whose two best chunks differ counted as if one passage matched both ways, and the
 * seeds of hig and pgr fell below hybrid on the documentation folders (SilverBullet 87.5 vs 93.8, Foam
 * 93.5 vs 100); at chunk grain 90.6 and 100, the other dev sets unchanged (bench, all dev sets).
 */
export function fusedDocuments(ctx: RetrievalContext, qa: QueryAnalysis, depth = 50, rrfK = RRF_K, denseWeight?: number): FusedDocument[] {
  return documentsOf(ctx, fusedChunks(ctx, qa, depth, rrfK, denseWeight));
}

/** Notes in the order of their best passage in a passage ranking, each with that passage and its score. */
export function documentsOf(ctx: RetrievalContext, chunks: Scored[]): FusedDocument[] {
  const score = new Map(chunks.map((c) => [c.id, c.score]));
  return notesOf(chunkDocuments(ctx), chunks).map(({ docId, chunkId }) => ({ docId, chunkId, score: score.get(chunkId)! }));
}

/**
 * The RRF of the BM25 and dense chunk rankings, best first, dense weighted by its agreement with BM25 on
 * this question unless the caller judged it another way (hig and pgr: by their graph) and passes a weight.
 */
export function fusedChunks(ctx: RetrievalContext, qa: QueryAnalysis, depth: number, rrfK: number, denseWeight?: number): Scored[] {
  const wDense = denseWeight ?? firstStageNotes(ctx, qa, depth).wDense;
  const scores = new Map<number, number>();
  const add = (list: { id: number }[], w: number) => list.forEach(({ id }, rank) => scores.set(id, (scores.get(id) ?? 0) + w / (rrfK + rank + 1)));
  add(bm25Ranking(ctx, qa, depth), 1);
  add(denseRanking(ctx, qa, depth), wDense);
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}
