// The span a passage is shown in: the passage with the rest of its heading's section, up to a chunk's
// size. The chunker cuts a section apart where code meets prose, so in a documentation guide one
// heading's "Configure it in your settings:", the JSON line and the list of the setting's values are three
// passages; shown alone, one of them holds the question's words and another the answer. A section also
// runs on into its subsections ("filepath attribute" › "Creating notes in the current directory").
// This takes the place of lead-ins (a short passage ending in a colon shown with the one after it): a
// lead-in's section holds what it introduces.
// On the documentation dev sets (loci, share of the reference answer's words in the first 5 contexts,
// SilverBullet / Foam, from 80.7 / 86.7 with lead-ins; BM25 76.8 / 82.9): the passage's own heading only
// 81.6 / 87.7, with its subsections 81.6 / 88.1; the extractive answer unchanged (58.5 / 66.0). Up to
// 800 / 1000 / 1500 characters: 81.2 / 86.7, 81.6 / 87.3, 81.9 / 88.1; past a chunk's size the share
// only grows with the text shown (2000: 82.1 / 88.6, 2400: 82.8 / 88.6), so a span stops where a chunk
// would. Grown after the passage first (the passage and what it introduces lead), then before it;
// growing around it alternately: the same.
import type { Db } from '../store/db.js';
import type { RetrievedContext } from '../types.js';
import type { Scored } from '../embed/vector-matrix.js';
import { sectionPassages, type SectionPassage } from '../store/passage-terms.js';
import { MAX_CHUNK_CHARS } from '../ingest/chunk.js';
import { chunkContexts } from './contexts.js';
import { notePassages, type RankedNote, type ShownPassage } from './note-passages.js';

/** How `--explain` says that a method shows passages in their spans with their notes' near-top passages (hig, pgr). */
export const SECTION_SPANS =
  "Passages: these notes are guides of several passages, so each is shown in its section's span, followed by the note's other passages the fusion ranks near the top";

/**
 * The passages a passage is shown with (itself included, in the note's order): the passages right after
 * it in its section while the span stays within maxChars, then those right before it.
 */
export function spanOf(section: SectionPassage[], id: number, maxChars: number): number[] {
  const i = section.findIndex((x) => x.id === id);
  if (i < 0) return [id];
  let first = i;
  let last = i;
  let chars = section[i]!.chars;
  // Only neighbours in the note's order: a section's passages are consecutive, but a heading repeated
  // later in the note gives a second run with the same path.
  const adjacent = (a: SectionPassage, b: SectionPassage) => Math.abs(a.ord - b.ord) === 1;
  const fits = (x: SectionPassage | undefined, beside: SectionPassage) => x !== undefined && adjacent(x, beside) && chars + x.chars <= maxChars;
  while (fits(section[last + 1], section[last]!)) chars += section[++last]!.chars;
  while (fits(section[first - 1], section[first]!)) chars += section[--first]!.chars;
  return section.slice(first, last + 1).map((x) => x.id);
}

/** Each passage's span (passage → the passages it is shown with), within maxChars. */
export function passageSpans(db: Db, ids: number[], maxChars = MAX_CHUNK_CHARS): Map<number, number[]> {
  const sections = new Map<number, SectionPassage[]>();
  for (const r of sectionPassages(db, ids)) {
    const list = sections.get(r.of);
    if (list) list.push(r);
    else sections.set(r.of, [r]);
  }
  return new Map(ids.map((id) => [id, spanOf(sections.get(id) ?? [], id, maxChars)]));
}

/**
 * Contexts of passages shown in their spans (a passage's own `span` where it has one, else its span in
 * `spans`): the span's text and lines, under the heading it opens with; the context keeps the passage's
 * own id (the one the retrieval found).
 */
export function spanContexts(db: Db, scored: (Scored | ShownPassage)[], spans: Map<number, number[]> = new Map()): RetrievedContext[] {
  const spanIds = (s: Scored | ShownPassage) => ('span' in s ? s.span : (spans.get(s.id) ?? [s.id]));
  const parts = new Map(chunkContexts(db, [...new Set(scored.flatMap(spanIds))].map((id) => ({ id, score: 0 }))).map((c) => [c.chunkId!, c]));
  return scored.flatMap((s) => {
    const own = parts.get(s.id);
    if (!own) return [];
    // Never empty: a span holds its own passage.
    const span = spanIds(s).flatMap((id) => parts.get(id) ?? []);
    const opening = span[0]!;
    return [{ ...own, factPath: opening.factPath, text: span.map((c) => c.text).join('\n\n'), lineFrom: opening.lineFrom, lineTo: span[span.length - 1]!.lineTo, score: s.score }];
  });
}

/**
 * A note ranking's contexts in a folder of guides: each note's passage in its span, followed by its
 * further passages among `nearTop` (note-passages.ts), in theirs (loci and hig).
 */
export function notesInSpans(db: Db, notes: RankedNote[], nearTop: number[], docOf: Map<number, number>, k: number): RetrievedContext[] {
  const spans = passageSpans(db, [...new Set([...notes.map((n) => n.chunkId), ...nearTop])]);
  return spanContexts(db, notePassages(notes, nearTop, docOf, k, spans));
}
