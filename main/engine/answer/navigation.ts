// Notes that are mostly links to other notes — a table of contents, an index, a vault's README — match
// every question about the topics they list, and took citation slots from the notes that answer. They are
// navigation: the extractive answer ranks their facts after the others (it does not drop them).
import type { NotePassageRow } from '../store/retrieval.js';
import { noteMarkdown } from './note-markdown.js';

/** From this share of a note's text in links, with at least MIN_LINKS links, the note is navigation. */
export const NAVIGATION_SHARE = 0.5;
const MIN_LINKS = 3;

/**
 * The share of a note's prose characters (headings and code aside) that are link text — Markdown links
 * and wikilinks — and how many links it holds, from the note's passages as written.
 */
export function linkShare(passages: readonly NotePassageRow[]): { share: number; links: number } {
  let linked = 0;
  let all = 0;
  let links = 0;
  for (const p of [...passages].sort((a, b) => a.line_from - b.line_from)) {
    if (p.is_code) continue;
    let inHeading = false;
    for (const block of noteMarkdown().parse(p.text, {})) {
      if (block.type === 'heading_open') inHeading = true;
      if (block.type === 'heading_close') inHeading = false;
      if (block.type !== 'inline' || inHeading) continue;
      let depth = 0;
      for (const t of block.children ?? []) {
        if (t.type === 'link_open') {
          depth++;
          links++;
        }
        else if (t.type === 'link_close') depth = Math.max(0, depth - 1);
        const chars = t.content.replace(/\s+/g, '').length;
        all += chars;
        if (t.type === 'wikilink') links++;
        if (t.type === 'wikilink' || depth > 0) linked += chars;
      }
    }
  }
  return { share: all ? linked / all : 0, links };
}

/** Whether a note is navigation rather than an answer. */
export function isNavigation(passages: readonly NotePassageRow[]): boolean {
  const { share, links } = linkShare(passages);
  return links >= MIN_LINKS && share >= NAVIGATION_SHARE;
}
