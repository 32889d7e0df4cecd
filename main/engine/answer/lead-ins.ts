// What a lead-in introduces. How-to notes write the step as a sentence ending in a colon and the step
// itself below it: a code block ("Show only backlinks:" then `foam links my-note --incoming`) or a list
// ("The Connections panel shows both forward links and backlinks:" then the three steps). The fact is
// the sentence, and an answer that stops at the colon leaves out what the reader came for. So an
// answer's lead-in fact brings the code block that opens on the next line or the one after, the list
// items right under it, or the table ("Create links to recent daily notes using snippets:" over the
// snippets and the dates they stand for).
import type { FactRow, NotePassageRow } from '../store/retrieval.js';
import { PATH_SEPARATOR } from '../../contract/shapes/domain.js';
import { markdownText, quotedText } from './markdown.js';
import { quotedFact } from './quoted.js';

/** Lines of a code block an answer shows; the rest is left to the cited note. */
const MAX_LINES = 8;
/** Characters of a code line an answer shows. */
const MAX_LINE_CHARS = 160;
/** List items (or table rows) an answer shows under their lead-in. */
const MAX_ITEMS = 5;

const LEAD_IN_END = /[:：]\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s/;
/** A table's delimiter row (`| --- | :-: |`), which makes the line above it a table's header. */
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
/** A cell boundary: a pipe not escaped as `\|`. */
const CELL_PIPE = /(?<!\\)\|/;

function isLeadIn(text: string): boolean {
  return LEAD_IN_END.test(text);
}

export interface IntroducedCode {
  /** The block as Markdown: fenced, cut to MAX_LINES with "…" where it goes on. */
  markdown: string;
  /** The block's last line in the note, so the citation covers it. */
  lineTo: number;
}

/**
 * The code block a fact introduces: a code block starting within two lines after it, where the fact ends
 * in a colon or ends the paragraph right above the block ("Below is a basic compose.yml that runs
 * SilverBullet." over the file). `lineText` is the fact's last line as written in the note.
 */
export function introducedCode(
  fact: { docId?: number; text: string; lineTo: number },
  passages: readonly NotePassageRow[],
  lineText: string | null = null,
): IntroducedCode | null {
  if (fact.docId === undefined) return null;
  const block = passages.find((b) => b.is_code && b.document_id === fact.docId && b.line_from > fact.lineTo && b.line_from <= fact.lineTo + 2);
  if (!block || !(isLeadIn(fact.text) || (lineText !== null && endsLine(fact.text, lineText)))) return null;
  return { markdown: fenced(block.text), lineTo: block.line_to };
}

/** A note's line as written (null where no passage holds it). */
export type NoteLines = (line: number) => string | null;

/** What a lead-in fact shows under it, and the facts shown there (not picked again on their own). */
export interface ShownUnder {
  markdown: string;
  /** The last line shown, so the citation covers it. */
  lineTo: number;
  facts: FactRow[];
}

/**
 * The list (its first MAX_ITEMS items, numbered as written) or else the table a lead-in fact introduces,
 * from the facts of its note and the note's lines. Items and rows past those shown stay facts of their own.
 */
export function shownUnderLeadIn(lead: FactRow, facts: readonly FactRow[], lines: NoteLines): ShownUnder | null {
  const items = listItems(lead, itemCandidates(lead, facts), (f) => lines(f.line_from));
  if (items.length) {
    const shown = items.slice(0, MAX_ITEMS);
    const ordered = /^\s*\d/.test(lines(items[0]!.line_from) ?? '');
    const marker = (i: number) => (ordered ? `${i + 1}.` : '-');
    const markdown = [...shown.map((f, i) => `${marker(i)} ${itemText(f, lines)}`), ...(items.length > MAX_ITEMS ? [`${marker(MAX_ITEMS)} …`] : [])].join('\n');
    return { markdown, lineTo: Math.max(lead.line_to, ...shown.map((f) => f.line_to)), facts: shown };
  }
  const table = introducedTable({ text: lead.text, lineTo: lead.line_to }, lines);
  if (!table) return null;
  // A row is a fact of its own too ("/monday, next Monday").
  const rows = facts.filter((f) => f.document_id === lead.document_id && f.line_from >= table.lineFrom && f.line_to <= table.lineTo);
  return { markdown: table.markdown, lineTo: table.lineTo, facts: rows };
}

export interface IntroducedTable {
  /** The table as Markdown: its header and first MAX_ITEMS rows, with a row of "…" where it goes on. */
  markdown: string;
  /** The first and last lines of the rows shown, so the citation covers them and their facts are not picked again. */
  lineFrom: number;
  lineTo: number;
}

/**
 * The table a lead-in fact introduces: a header row within two lines after the fact, with its delimiter
 * row under it. `lineOf` gives the note's line as written (null where no passage holds it).
 */
export function introducedTable(fact: { text: string; lineTo: number }, lineOf: NoteLines): IntroducedTable | null {
  if (!isLeadIn(fact.text)) return null;
  let header = fact.lineTo + 1;
  while (header <= fact.lineTo + 2 && !lineOf(header)?.trim()) header++;
  if (header > fact.lineTo + 2) return null;
  const head = lineOf(header);
  const delimiter = lineOf(header + 1);
  if (!head || !CELL_PIPE.test(head) || delimiter === null || !TABLE_DELIMITER.test(delimiter) || !CELL_PIPE.test(delimiter)) return null;
  const rows: string[] = [];
  let line = header + 2;
  for (let text = lineOf(line); text?.trim() && CELL_PIPE.test(text); text = lineOf(++line)) rows.push(text);
  const shown = rows.slice(0, MAX_ITEMS);
  const width = cells(head).length;
  const body = [...shown.map((r) => row(cells(r))), ...(rows.length > MAX_ITEMS ? [row(Array.from({ length: width }, () => '…'))] : [])];
  const markdown = [row(cells(head)), row(cells(delimiter).map((d) => d.replace(/-+/, '---'))), ...body].join('\n');
  return { markdown, lineFrom: header, lineTo: header + 1 + shown.length };
}

/** A row's cells, trimmed, without the pipes that open and close it; each cut to MAX_LINE_CHARS. */
function cells(line: string): string[] {
  const parts = line.trim().split(CELL_PIPE).map((c) => c.trim());
  if (parts[0] === '') parts.shift();
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts.map((c) => (c.length > MAX_LINE_CHARS ? `${c.slice(0, MAX_LINE_CHARS)}…` : c));
}

const row = (cellTexts: string[]) => `| ${cellTexts.join(' | ')} |`;

/** Letters and digits only, lowercased: a fact's text is its line's with the Markdown taken out. */
const bareWords = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A note's line as written, from the passage that holds it (null where it is not known). */
export function lineInPassage(passage: NotePassageRow | undefined, line: number): string | null {
  return passage ? (passage.text.split('\n')[line - passage.line_from] ?? null) : null;
}

/** Whether the fact is the last sentence on its line: the line ends with the fact's last words. */
function endsLine(fact: string, line: string): boolean {
  const tail = bareWords(fact).slice(-20);
  return tail.length >= 8 && bareWords(line).endsWith(tail);
}

/** The mind-map node a fact hangs under (the paragraph or section it is in). */
function parentPath(path: string): string {
  const cut = path.lastIndexOf(PATH_SEPARATOR);
  return cut < 0 ? '' : path.slice(0, cut);
}

/**
 * Facts that may be the list a lead-in introduces: after it, in the same note, under the same mind-map
 * node (the paragraph the lead-in ends), in line order. Which of them are list items, one right after
 * the other, listItems decides from the notes' lines.
 */
function itemCandidates(lead: FactRow, facts: readonly FactRow[]): FactRow[] {
  if (!isLeadIn(lead.text) || !lead.path_text) return [];
  const under = parentPath(lead.path_text);
  if (!under) return [];
  return facts
    .filter((f) => f.document_id === lead.document_id && f.line_from > lead.line_to && f.path_text !== null && parentPath(f.path_text) === under)
    .sort((a, b) => a.line_from - b.line_from);
}

/**
 * The list items right under a lead-in: candidates whose line in the note opens a list item ("- ",
 * "1. "), the first within two lines of the lead-in, each next within two lines of the one before.
 * `lineOf` gives a fact's first line as written in the note (null where unknown).
 */
function listItems(lead: FactRow, candidates: readonly FactRow[], lineOf: (f: FactRow) => string | null): FactRow[] {
  const items: FactRow[] = [];
  let last = lead.line_to;
  for (const f of candidates) {
    if (f.line_from > last + 2) break;
    const line = lineOf(f);
    if (line === null || !LIST_ITEM.test(line)) {
      // A second fact of the same item (a sentence after the first) keeps the list going.
      if (items.length && f.line_from <= items[items.length - 1]!.line_to) continue;
      break;
    }
    items.push(f);
    last = Math.max(last, f.line_to);
  }
  return items;
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

/** Sentences after a fact that may stand between it and the lead-in that ends its paragraph. */
const MAX_FOLLOWING = 2;
const HEADING = /^\s{0,3}#/;

/** What a fact leads into through the rest of its paragraph: the sentences after it and what the last one introduces. */
export interface LeadsInto {
  following: FactRow[];
  under: ShownUnder;
}

/**
 * A how-to often says what it does first and gives the step after ("Squash commits with fixup commits.
 * Commit each fix with `git commit --fixup <SHA>`, then run:" over the command): the first sentence
 * matches the question, the last leads into the answer. For a fact whose paragraph ends, at most
 * MAX_FOLLOWING sentences later, in a sentence that introduces a code block, a list or a table, those
 * sentences and what they introduce. Null otherwise.
 */
export function leadsInto(fact: FactRow, facts: readonly FactRow[], passages: readonly NotePassageRow[], lines: NoteLines): LeadsInto | null {
  let end = fact.line_to;
  for (;;) {
    const next = lines(end + 1);
    if (next === null || !next.trim() || LIST_ITEM.test(next) || FENCE.test(next) || HEADING.test(next) || CELL_PIPE.test(next)) break;
    end++;
  }
  const after = facts
    .filter((f) => f.document_id === fact.document_id && f.id !== fact.id && f.line_to <= end && (f.line_from > fact.line_to || (f.line_from >= fact.line_from && f.id > fact.id)))
    .sort((a, b) => a.line_from - b.line_from || a.id - b.id);
  const lead = after[after.length - 1];
  if (!lead || after.length > MAX_FOLLOWING || lead.line_to !== end) return null;
  const shown = shownUnderLeadIn(lead, facts, lines);
  if (shown) return { following: after, under: shown };
  const code = introducedCode({ docId: lead.document_id, text: lead.text, lineTo: lead.line_to }, passages, lines(lead.line_to));
  return code ? { following: after, under: { ...code, facts: [] } } : null;
}

/** A list item's fact as its note writes it (code spans, links), or its plain text. */
function itemText(f: FactRow, lines: NoteLines): string {
  const raw = Array.from({ length: f.line_to - f.line_from + 1 }, (_, j) => lines(f.line_from + j)).filter((l) => l !== null);
  const quoted = raw.length ? quotedFact(f.text, raw.join('\n')) : null;
  return quoted ? quotedText(quoted) : markdownText(f.text);
}

/** Lines above a list item its lead-in may stand (the list's earlier items between them). */
const LEAD_IN_REACH = 12;

/**
 * The lead-in a list item is shown under ("You can change your choice at any time:" over "Set
 * `FOAM_TELEMETRY=0` …"): an item alone answers without saying what it is a step of. Null when the
 * item is not under a lead-in's list (or is past the items the lead-in shows).
 */
export function leadInOf(item: FactRow, facts: readonly FactRow[], lines: NoteLines): FactRow | null {
  const line = lines(item.line_from);
  if (line === null || !LIST_ITEM.test(line)) return null;
  for (const lead of facts) {
    if (lead.document_id !== item.document_id || lead.line_to >= item.line_from || lead.line_to < item.line_from - LEAD_IN_REACH || !isLeadIn(lead.text)) continue;
    if (shownUnderLeadIn(lead, facts, lines)?.facts.some((f) => f.id === item.id)) return lead;
  }
  return null;
}
