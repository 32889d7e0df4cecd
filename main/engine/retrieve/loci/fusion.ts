// First-stage fusion: each ranking adds its weight × 1/(rrfK + rank) to the notes it ranks (reciprocal
// rank fusion, weighted per question; docs/tuning.md has how the weights were chosen).
import type { Scored } from '../../embed/vector-matrix.js';
import type { PprDocument } from '../ppr.js';
import type { LociDocuments } from './documents.js';

export interface FusionWeights {
  bm25: number;
  bigramShare: number;
  dense: number;
  title: number;
  ppr: number;
}

export interface FirstStageRankings {
  lexical: { docId: number; chunkId: number }[];
  ownOrder: { docId: number; chunkId: number }[];
  ownShare: number;
  dense: { docId: number; chunkId: number }[];
  byTitle: Scored[];
  walk: PprDocument[];
}

/**
 * Adds every ranking's share to `docs`; returns the chunk each note is shown by: its best BM25 chunk,
 * else its best dense chunk, else the walk's.
 */
export function fuseFirstStage(docs: LociDocuments, r: FirstStageRankings, w: FusionWeights, rrf: (rank: number) => number): Map<number, number> {
  const shownChunk = new Map<number, number>();
  r.lexical.forEach(({ docId, chunkId }, rank) => {
    const d = docs.entry(docId);
    d.ranks.bm25 = rank + 1;
    d.score += w.bm25 * (1 - r.ownShare) * rrf(rank);
    shownChunk.set(docId, chunkId);
  });
  r.ownOrder.forEach(({ docId }, rank) => (docs.entry(docId).score += w.bm25 * r.ownShare * rrf(rank)));
  r.dense.forEach(({ docId, chunkId }, rank) => {
    const d = docs.entry(docId);
    d.ranks.dense = rank + 1;
    d.score += w.dense * rrf(rank);
    if (!shownChunk.has(docId)) shownChunk.set(docId, chunkId);
  });
  r.byTitle.forEach((s, rank) => {
    const d = docs.entry(s.id);
    d.ranks.title = rank + 1;
    d.score += w.title * rrf(rank);
  });
  r.walk.forEach((x, rank) => {
    const d = docs.entry(x.docId);
    d.ranks.ppr = rank + 1;
    d.score += w.ppr * rrf(rank);
    if (!shownChunk.has(x.docId)) shownChunk.set(x.docId, x.chunkId);
  });
  return shownChunk;
}
