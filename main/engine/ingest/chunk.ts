import type { ParsedChunk } from '../types.js';
import type { LineIndex } from './line-index.js';

/** A top-level block of a note, as offsets into the note's text. */
export interface Block {
  start: number;
  end: number;
  headingPath: string[];
  /** The line of the last heading in headingPath, null when there is none. */
  headingLine: number | null;
  /** Increments at every heading, so blocks on either side of a heading never share a chunk. */
  section: number;
  isCode: boolean;
  /** Child spans (list items, quoted blocks) to split at when the block alone is too long. */
  splittable: { start: number; end: number }[] | null;
}

/** A chunk aims to stay under this many characters: a few paragraphs, one embedding's worth. */
export const MAX_CHUNK_CHARS = 1200;

interface Span {
  start: number;
  end: number;
}

/**
 * Groups consecutive blocks of one section into chunks, cutting before a chunk would pass
 * MAX_CHUNK_CHARS. A chunk's text is the note's own text between its first and last block, so the
 * line range it reports contains exactly that text.
 */
export function buildChunks(content: string, lines: LineIndex, blocks: Block[]): ParsedChunk[] {
  const chunks: ParsedChunk[] = [];
  // The open chunk: from its first piece's start to its last piece's end.
  let group: { start: number; end: number; block: Block } | null = null;

  const flush = () => {
    if (!group) return;
    const { start, end } = group;
    const text = content.slice(start, end).replace(/\s+$/, '');
    if (text.trim()) {
      chunks.push({
        ord: chunks.length,
        headingPath: group.block.headingPath,
        headingLine: group.block.headingLine,
        text,
        lineFrom: lines.lineOf(start),
        lineTo: lines.lineOf(start + text.length - 1),
        isCode: group.block.isCode,
      });
    }
    group = null;
  };

  for (const block of blocks) {
    const pieces = block.end - block.start > MAX_CHUNK_CHARS ? splitBlock(content, block) : [block];
    for (const piece of pieces) {
      // Code stays apart from prose (it is searchable but never turned into facts), but the pieces
      // of one long code block may share chunks.
      const sameKind = group !== null && (group.block === block || (!block.isCode && !group.block.isCode));
      const joinable =
        group !== null &&
        sameKind &&
        group.block.section === block.section &&
        piece.end - group.start <= MAX_CHUNK_CHARS;
      if (group !== null && joinable) {
        group.end = piece.end;
      } else {
        flush();
        group = { start: piece.start, end: piece.end, block };
      }
    }
  }
  flush();
  return chunks;
}

/** Splits an oversized block at its children (list items), else at line ends, else at spaces. */
function splitBlock(content: string, block: Block): Span[] {
  const units: Span[] = block.splittable ?? lineSpans(content, block);
  const out: Span[] = [];
  for (const unit of units) {
    if (unit.end - unit.start <= MAX_CHUNK_CHARS) out.push(unit);
    else if (block.splittable) out.push(...lineSpans(content, unit).flatMap((s) => splitLongSpan(content, s)));
    else out.push(...splitLongSpan(content, unit));
  }
  return out;
}

function lineSpans(content: string, span: Span): Span[] {
  const spans: Span[] = [];
  let start = span.start;
  while (start < span.end) {
    let nl = content.indexOf('\n', start);
    if (nl === -1 || nl > span.end) nl = span.end;
    if (content.slice(start, nl).trim()) spans.push({ start, end: nl });
    start = nl + 1;
  }
  return spans;
}

/** Cuts a single long line at the last space before the limit (or hard at the limit). */
function splitLongSpan(content: string, span: Span): Span[] {
  const out: Span[] = [];
  let start = span.start;
  while (span.end - start > MAX_CHUNK_CHARS) {
    const limit = start + MAX_CHUNK_CHARS;
    const space = content.lastIndexOf(' ', limit);
    const cut = space > start + MAX_CHUNK_CHARS / 2 ? space : limit;
    out.push({ start, end: cut });
    start = cut;
    while (start < span.end && content[start] === ' ') start++;
  }
  if (start < span.end) out.push({ start, end: span.end });
  return out;
}
