import { describe, expect, it } from 'vitest';
import { nearTopPassages, notePassages, unshownRun } from '../../main/engine/retrieve/note-passages.js';

// Chunks 1–3 belong to note 10, 4 to note 20, 5 to note 30, 6 to note 40.
const docOf = new Map([
  [1, 10],
  [2, 10],
  [3, 10],
  [4, 20],
  [5, 30],
  [6, 40],
]);
const bm25 = [1, 2, 4, 3, 5, 6].map((id, r) => ({ id, score: 10 - r }));
const notes = [
  { docId: 10, score: 3, chunkId: 1 },
  { docId: 20, score: 2, chunkId: 4 },
  { docId: 30, score: 1, chunkId: 5 },
  { docId: 40, score: 0.5, chunkId: 6 },
];

describe('a note ranking shown by passages', () => {
  it("follows each note's shown passage with its others among BM25's first few", () => {
    const ids = notePassages(notes, nearTopPassages(bm25, bm25, { withinTop: 4, withBm25First: true }), docOf, 10).map((s) => s.id);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps the first ⌈k/2⌉ notes whatever their further passages', () => {
    const out = notePassages(notes, bm25.slice(0, 5).map((s) => s.id), docOf, 4);
    expect(out).toHaveLength(4);
    expect(new Set(out.map((s) => docOf.get(s.id)))).toEqual(new Set([10, 20]));
    expect(notePassages(notes, [], docOf, 4).map((s) => s.id)).toEqual([1, 4, 5, 6]);
  });

  it('counts BM25’s own first passage as near the top where passage choice reordered the passages', () => {
    // Passage choice put note 10's long passage 3 first and BM25's first, 1, below the first two.
    const chosen = [3, 4, 5, 1, 2, 6].map((id, r) => ({ id, score: 10 - r }));
    expect(nearTopPassages(chosen, bm25, { withinTop: 2, withBm25First: true })).toEqual([3, 4, 1]);
    expect(nearTopPassages(chosen, bm25, { withinTop: 2, withBm25First: false })).toEqual([3, 4]);
    expect(nearTopPassages(bm25, bm25, { withinTop: 2, withBm25First: true })).toEqual([1, 2]);
    const shownBy3 = notes.map((n) => (n.docId === 10 ? { ...n, chunkId: 3 } : n));
    expect(notePassages(shownBy3, nearTopPassages(chosen, bm25, { withinTop: 2, withBm25First: true }), docOf, 10).map((s) => s.id)).toEqual([3, 1, 4, 5, 6]);
  });

  it('does not show again a passage already shown in the span of another', () => {
    // Passage 1 is shown with 2 (one section); 2 is near the top but takes no place of its own.
    const spans = new Map([[1, [1, 2]]]);
    expect(notePassages(notes, [1, 2, 3], docOf, 10, spans).map((s) => s.id)).toEqual([1, 3, 4, 5, 6]);
  });

  it('shows no passage twice when spans overlap: a later span loses what an earlier one shows', () => {
    // Note 10's passages 1, 2, 3 are one section; 1 is shown with 2, and 3's span reaches back to 2.
    const spans = new Map([
      [1, [1, 2]],
      [3, [2, 3]],
    ]);
    const out = notePassages(notes, [1, 3], docOf, 10, spans);
    expect(out.map((s) => [s.id, s.span])).toEqual([
      [1, [1, 2]],
      [3, [3]],
      [4, [4]],
      [5, [5]],
      [6, [6]],
    ]);
  });

  it('keeps a trimmed span one run of consecutive passages around its own passage', () => {
    expect(unshownRun([1, 2, 3, 4, 5], 2, new Set([4]))).toEqual([1, 2, 3]);
    expect(unshownRun([1, 2, 3, 4, 5], 4, new Set([1, 2]))).toEqual([3, 4, 5]);
    expect(unshownRun([1, 2, 3], 2, new Set())).toEqual([1, 2, 3]);
    expect(unshownRun([1, 2], 7, new Set())).toEqual([7]);
  });
});
