// The contexts of a note ranking: each ranked note's shown passage, followed by its other passages that
// BM25 itself ranks near the top. A note-level method that returns one passage per note hands the reader
// less of the answer than BM25's top passages, several of which may come from the note that answers
// (documentation: a guide's setup and its options in two sections).
import type { Scored } from '../embed/vector-matrix.js';

export interface PassageParams {
  /** A further passage of a note is shown when it is among BM25's first this many passages (0: none). */
  withinTop: number;
}

// On the documentation sets (the only dev sets with several passages per note) loci's share of the
// reference answer's words in its first 5 contexts went from 73.7/77.9 (SilverBullet/Foam) to
// 73.9/84.8 with 5 and 74.5/84.1 with 8, against BM25's 74.4/83.9 (8: not below BM25 on either); a
// share of the note's best passage's score instead (0.5–0.8, 1–4 per note) gave 71.6–77.0 / 75.9–83.5.
export const DEFAULT_PASSAGE_PARAMS: PassageParams = { withinTop: 8 };

export interface RankedNote {
  docId: number;
  score: number;
  /** The passage the note is shown by. */
  chunkId: number;
}

/**
 * Up to k contexts: the notes in rank order, each followed by its further passages among BM25's first
 * p.withinTop. Further passages take at most ⌊k/2⌋ of the k places, so the first ⌈k/2⌉ notes of the
 * ranking are always shown and recall over distinct notes at k/2 is the ranking's own.
 */
export function notePassages(
  notes: RankedNote[],
  bm25Chunks: Scored[],
  docOf: Map<number, number>,
  k: number,
  p: PassageParams,
  /** Lead-in passage → the passage it introduces, shown after it in a further passage's place (passage-choice.ts). */
  leadIns: Map<number, number> = new Map(),
): Scored[] {
  const further = new Map<number, number[]>();
  for (const c of bm25Chunks.slice(0, p.withinTop)) {
    const d = docOf.get(c.id);
    if (d === undefined) continue;
    const list = further.get(d);
    if (list) list.push(c.id);
    else further.set(d, [c.id]);
  }
  let spare = Math.floor(k / 2);
  const out: Scored[] = [];
  const shown = new Set<number>();
  const show = (id: number, score: number) => {
    out.push({ id, score });
    shown.add(id);
    const introduced = leadIns.get(id);
    if (introduced !== undefined && spare > 0 && out.length < k && !shown.has(introduced)) {
      out.push({ id: introduced, score });
      shown.add(introduced);
      spare--;
    }
  };
  for (const n of notes) {
    if (out.length >= k) break;
    if (!shown.has(n.chunkId)) show(n.chunkId, n.score);
    for (const id of further.get(n.docId) ?? []) {
      if (spare === 0 || out.length >= k) break;
      if (shown.has(id)) continue;
      spare--;
      show(id, n.score);
    }
  }
  return out;
}
