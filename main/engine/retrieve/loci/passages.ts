// Passage choice for the answer: each ranked note is shown by its chosen passage (a note no ranking
// showed by one gets its best chunk by the question's vector), with the further passages near the top.
import type { RetrievedContext } from '../../types.js';
import type { Scored } from '../../embed/vector-matrix.js';
import type { RetrievalContext } from '../retriever.js';
import type { PassageParams } from '../note-passages.js';
import type { LociDocument } from './documents.js';
import { bestChunks } from '../hig/retriever.js';
import { chunkContexts } from '../contexts.js';
import { nearTopPassages, notePassages } from '../note-passages.js';
import { notesInSpans } from '../passage-spans.js';
import { chunkDocuments } from '../rank-fusion.js';

export function rankedPassages(
  ctx: RetrievalContext,
  ranked: LociDocument[],
  shownChunk: Map<number, number>,
  embedding: Float32Array,
  lexical: { bm25: Scored[]; passages: Scored[] },
  params: PassageParams,
  k: number,
): RetrievedContext[] {
  const unshown = ranked.filter((d) => !shownChunk.has(d.docId)).map((d) => d.docId);
  const chunkOf = new Map([...bestChunks(ctx, embedding, unshown), ...shownChunk]);
  const shown = ranked.flatMap((d) => {
    const chunkId = chunkOf.get(d.docId);
    return chunkId === undefined ? [] : [{ docId: d.docId, score: d.score, chunkId }];
  });
  const docOf = chunkDocuments(ctx);
  const nearTop = nearTopPassages(lexical.passages, lexical.bm25, params);
  // Passages are shown in their sections' spans only where passage choice is at work (notes of several
  // passages; elsewhere a span is its passage).
  return lexical.passages === lexical.bm25 ? chunkContexts(ctx.db, notePassages(shown, nearTop, docOf, k)) : notesInSpans(ctx.db, shown, nearTop, docOf, k);
}
