// The contexts of a note ranking: each ranked note's shown passage, followed by its other passages that
// BM25 itself ranks near the top. A note-level method that returns one passage per note hands the reader
// less of the answer than BM25's top passages, several of which may come from the note that answers
// (documentation: a guide's setup and its options in two sections).
import type { Scored } from '../embed/vector-matrix.js';

export interface PassageParams {
  /** A further passage of a note is shown when it is among BM25's first this many passages (0: none). */
  withinTop: number;
  /**
   * Where passage choice reordered BM25's passages (passage-choice.ts), BM25's own first passage counts
   * as near the top too. Passage choice scores with no length normalisation, which favours a long
   * passage that repeats the question's words (a guide's introduction) over the short one that BM25
   * puts first (the setting's values); on Foam the note's introduction stood for it, and the list of the
   * setting's values was not shown. Documentation dev sets, with spans (passage-spans.ts), share of the
   * reference answer's words in the first 5 contexts, SilverBullet / Foam: none 81.6 / 88.1; BM25's first
   * 1 / 2 / 3 / 5 passages: 81.6 / 89.0, 81.3 / 88.6, 81.3 / 88.6, 81.0 / 88.9.
   */
  withBm25First: boolean;
}

// On the documentation sets (the only dev sets with several passages per note) loci's share of the
// reference answer's words in its first 5 contexts went from 73.7/77.9 (SilverBullet/Foam) to
// 73.9/84.8 with 5 and 74.5/84.1 with 8, against BM25's 74.4/83.9 (8: not below BM25 on either); a
// share of the note's best passage's score instead (0.5–0.8, 1–4 per note) gave 71.6–77.0 / 75.9–83.5.
// With spans and BM25's first passage, 5 / 6 / 7 / 9 / 10: 81.6 / 84.7, 81.9 / 85.5, 81.6 / 87.8, 80.9 / 89.0,
// 80.9 / 89.0 (8: 81.6 / 89.0).
export const DEFAULT_PASSAGE_PARAMS: PassageParams = { withinTop: 8, withBm25First: true };

export interface RankedNote {
  docId: number;
  score: number;
  /** The passage the note is shown by. */
  chunkId: number;
}

/**
 * The passages that count as near the top: the first p.withinTop of the passages in the order that chose
 * each note's passage, and BM25's own first passage where that order is not BM25's (p.withBm25First).
 */
export function nearTopPassages(chosen: Scored[], bm25: Scored[], p: PassageParams): number[] {
  const ids = chosen.slice(0, p.withinTop).map((s) => s.id);
  const own = bm25[0];
  if (p.withinTop > 0 && p.withBm25First && own && chosen !== bm25 && !ids.includes(own.id)) ids.push(own.id);
  return ids;
}

/** A passage to show, and the passages its context shows: its span, less what earlier contexts show. */
export interface ShownPassage extends Scored {
  span: number[];
}

/**
 * Up to k contexts: the notes in rank order, each followed by its further passages among `nearTop`.
 * Further passages take at most ⌊k/2⌋ of the k places, so the first ⌈k/2⌉ notes of the ranking are
 * always shown and recall over distinct notes at k/2 is the ranking's own. A passage shown in the span
 * of another (passage-spans.ts: passage → the passages it is shown with) is not shown again, and a
 * span that overlaps one already shown loses the passages shown, so no line is shown twice.
 */
export function notePassages(notes: RankedNote[], nearTop: number[], docOf: Map<number, number>, k: number, spans: Map<number, number[]> = new Map()): ShownPassage[] {
  const further = new Map<number, number[]>();
  for (const id of nearTop) {
    const d = docOf.get(id);
    if (d === undefined) continue;
    const list = further.get(d);
    if (list) list.push(id);
    else further.set(d, [id]);
  }
  let spare = Math.floor(k / 2);
  const out: ShownPassage[] = [];
  const shown = new Set<number>();
  const show = (id: number, score: number) => {
    const span = unshownRun(spans.get(id) ?? [id], id, shown);
    out.push({ id, score, span });
    for (const x of span) shown.add(x);
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

/** The run of a span's consecutive passages around `id` that no earlier context shows. */
export function unshownRun(span: number[], id: number, shown: Set<number>): number[] {
  const at = span.indexOf(id);
  if (at < 0) return [id];
  let first = at;
  let last = at;
  while (first > 0 && !shown.has(span[first - 1]!)) first--;
  while (last < span.length - 1 && !shown.has(span[last + 1]!)) last++;
  return span.slice(first, last + 1);
}
