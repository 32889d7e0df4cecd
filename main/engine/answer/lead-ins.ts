// What a lead-in introduces. How-to notes write the step as a sentence ending in a colon and the step
// itself as a code block below it ("Show only backlinks:" then `foam links my-note --incoming`); the
// fact is the sentence, and an answer that stops at the colon leaves out what the reader came for. So
// an answer's lead-in fact brings the code block that opens on the next line or the one after.
import type { CodeBlockRow } from '../store/retrieval.js';

/** Lines of a code block an answer shows; the rest is left to the cited note. */
const MAX_LINES = 8;
/** Characters of a code line an answer shows. */
const MAX_LINE_CHARS = 160;

const LEAD_IN_END = /[:：]\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;

export interface IntroducedCode {
  /** The block as Markdown: fenced, cut to MAX_LINES with "…" where it goes on. */
  markdown: string;
  /** The block's last line in the note, so the citation covers it. */
  lineTo: number;
}

/** The code block a fact introduces: one ending in a colon, with a code block starting within two lines after it. */
export function introducedCode(fact: { docId?: number; text: string; lineTo: number }, blocks: readonly CodeBlockRow[]): IntroducedCode | null {
  if (fact.docId === undefined || !LEAD_IN_END.test(fact.text)) return null;
  const block = blocks.find((b) => b.document_id === fact.docId && b.line_from > fact.lineTo && b.line_from <= fact.lineTo + 2);
  return block ? { markdown: fenced(block.text), lineTo: block.line_to } : null;
}

/** A code block as an answer shows it: its own fence (or a plain one for an indented block), its first lines. */
function fenced(text: string): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  const open = FENCE.exec(lines[0] ?? '');
  const fence = open ? open[1]! : '```';
  const opening = open ? lines[0]!.trim() : fence;
  const body = open ? lines.slice(1) : lines.map((l) => l.replace(/^ {4}|^\t/, ''));
  if (open && body.length && body[body.length - 1]!.trim().startsWith(fence)) body.pop();
  while (body.length && !body[0]!.trim()) body.shift();
  const shown = body.slice(0, MAX_LINES).map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l));
  if (body.length > MAX_LINES) shown.push('…');
  return [opening, ...shown, fence].join('\n');
}
