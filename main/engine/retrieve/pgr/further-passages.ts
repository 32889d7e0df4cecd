// pgr's contexts in a folder of guides: each note's fact paths, and beside the first the note's other
// passages that the seed fusion ranks near the top. pgr's matrices choose a guide's facts by the embedder
// alone (GloVe: the documentation sets' share of the answer's words in the first 5 contexts trailed
// hybrid's, 68.9 / 70.5 against 70.6 / 72.8); the passage the fusion found by the question's words holds
// what those facts do not.
import type { RetrievedContext } from '../../types.js';
import type { RetrievalContext } from '../retriever.js';
import type { Scored } from '../../embed/vector-matrix.js';
import { passageSpans, spanContexts } from '../passage-spans.js';
import { DEFAULT_PASSAGE_PARAMS, unshownRun, type ShownPassage } from '../note-passages.js';
import { chunkDocuments } from '../rank-fusion.js';

/**
 * The first k contexts, each note's first followed by its passages among the fusion's first
 * DEFAULT_PASSAGE_PARAMS.withinTop (as loci's, note-passages.ts), each in its span (`spans` holds the
 * contexts' own). A further passage takes the place of a note's later fact path, never a note's own
 * place, so the notes returned are pgr's; a passage an earlier span shows is not shown again, and a
 * span loses what earlier contexts show of it, so no line is shown twice.
 */
export function withFurtherPassages(ctx: RetrievalContext, contexts: RetrievedContext[], fusedPassages: Scored[], spans: Map<number, number[]>, k: number): RetrievedContext[] {
  const { db } = ctx;
  const docOf = chunkDocuments(ctx);
  const top = contexts.slice(0, k);
  const notes = new Set(top.map((c) => c.docId));
  const shown = new Set(top.flatMap((c) => (c.chunkId === undefined ? [] : (spans.get(c.chunkId) ?? [c.chunkId]))));
  const nearTop = fusedPassages
    .slice(0, DEFAULT_PASSAGE_PARAMS.withinTop)
    .map((x) => x.id)
    .filter((id) => notes.has(docOf.get(id) ?? -1) && !shown.has(id));
  // Most are passages of the facts pgr ranked, whose spans `spans` already holds.
  const unread = passageSpans(db, nearTop.filter((id) => !spans.has(id)));
  const furtherSpans = new Map(nearTop.map((id) => [id, spans.get(id) ?? unread.get(id) ?? [id]]));
  const further = new Map(spanContexts(db, nearTop.map((id) => ({ id, score: 0 })), furtherSpans).map((c) => [c.chunkId!, c]));
  let spare = k - notes.size;
  const out: RetrievedContext[] = [];
  const seen = new Set<number>();
  for (const c of top) {
    const first = !seen.has(c.docId);
    seen.add(c.docId);
    if (!first) {
      if (spare === 0) continue;
      spare--;
    }
    out.push(c);
    if (!first) continue;
    for (const id of nearTop) {
      if (spare === 0) break;
      const passage = further.get(id);
      if (!passage || docOf.get(id) !== c.docId || shown.has(id)) continue;
      spare--;
      out.push({ ...passage, score: c.score });
      for (const x of furtherSpans.get(id) ?? [id]) shown.add(x);
    }
  }
  return withoutRepeatedPassages(db, out, (id) => furtherSpans.get(id) ?? spans.get(id) ?? [id]);
}

/**
 * Each context in its span less the passages earlier contexts show (their fact paths and scores kept).
 * The trimmed ones are read again in one query; most questions trim none.
 */
function withoutRepeatedPassages(db: RetrievalContext['db'], contexts: RetrievedContext[], spanOf: (id: number) => number[]): RetrievedContext[] {
  const shown = new Set<number>();
  const trimmed: ShownPassage[] = [];
  for (const c of contexts) {
    if (c.chunkId === undefined) continue;
    const full = spanOf(c.chunkId);
    const span = unshownRun(full, c.chunkId, shown);
    for (const x of span) shown.add(x);
    if (span.length < full.length) trimmed.push({ id: c.chunkId, score: c.score, span });
  }
  if (trimmed.length === 0) return contexts;
  const shownAs = new Map(spanContexts(db, trimmed).map((t) => [t.chunkId!, t]));
  return contexts.map((c) => {
    const t = c.chunkId === undefined ? undefined : shownAs.get(c.chunkId);
    return t ? { ...c, text: t.text, lineFrom: t.lineFrom, lineTo: t.lineTo } : c;
  });
}
