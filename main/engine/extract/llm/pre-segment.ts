// Pre-segmentation (PG-RAG §5, limitation 1): a note is cut into pieces small enough for the model's
// context. A piece is one or more consecutive prose chunks, or a line-range slice of a long chunk, so
// every item generated from it can be traced back to a chunk and a line range.
import type { ParsedNote } from '../../types.js';
import { rougeTokens } from './consistency.js';

export interface PiecePart {
  chunkOrd: number;
  text: string;
  lineFrom: number;
  lineTo: number;
  /** The part's section headings (a piece can span sections). */
  headingPath?: string[];
}

export interface Piece {
  index: number;
  headingPath: string[];
  parts: PiecePart[];
  text: string;
  lineFrom: number;
  lineTo: number;
}

export function segmentNote(note: ParsedNote, maxChars: number): Piece[] {
  const parts: (PiecePart & { headingPath: string[] })[] = [];
  for (const c of note.chunks) {
    if (c.isCode || !c.text.trim()) continue;
    for (const p of splitChunk(c.ord, c.text, c.lineFrom, c.lineTo, maxChars)) parts.push({ ...p, headingPath: c.headingPath });
  }
  const pieces: Piece[] = [];
  let cur: (typeof parts)[number][] = [];
  let size = 0;
  const flush = () => {
    if (!cur.length) return;
    pieces.push({
      index: pieces.length,
      headingPath: cur[0]!.headingPath,
      parts: cur.map(({ chunkOrd, text, lineFrom, lineTo, headingPath }) => ({ chunkOrd, text, lineFrom, lineTo, headingPath })),
      text: cur.map((p) => p.text).join('\n\n'),
      lineFrom: Math.min(...cur.map((p) => p.lineFrom)),
      lineTo: Math.max(...cur.map((p) => p.lineTo)),
    });
    cur = [];
    size = 0;
  };
  for (const p of parts) {
    if (size > 0 && size + p.text.length + 2 > maxChars) flush();
    cur.push(p);
    size += p.text.length + 2;
  }
  flush();
  return pieces;
}

/** Splits a chunk on line boundaries into slices of at most maxChars (a single longer line stays whole, cut by characters). */
function splitChunk(chunkOrd: number, text: string, lineFrom: number, lineTo: number, maxChars: number): PiecePart[] {
  if (text.length <= maxChars) return [{ chunkOrd, text, lineFrom, lineTo }];
  const lines = text.split('\n');
  // The chunk's text may have been trimmed; map text lines onto the chunk's file lines, clamped.
  const lineOf = (i: number) => Math.min(lineTo, lineFrom + i);
  const out: PiecePart[] = [];
  let buf: string[] = [];
  let first = 0;
  const flush = (endIdx: number) => {
    const body = buf.join('\n');
    if (body.trim()) {
      for (let o = 0; o < body.length; o += maxChars) {
        out.push({ chunkOrd, text: body.slice(o, o + maxChars), lineFrom: lineOf(first), lineTo: lineOf(endIdx) });
      }
    }
    buf = [];
  };
  lines.forEach((line, i) => {
    const len = buf.reduce((s, l) => s + l.length + 1, 0);
    if (buf.length && len + line.length > maxChars) flush(i - 1);
    if (!buf.length) first = i;
    buf.push(line);
  });
  flush(lines.length - 1);
  return out;
}

/** The part of a piece a generated text most likely came from: the largest share of its words found there. */
export function locateInPiece(piece: Piece, generated: string): PiecePart {
  const first = piece.parts[0]!; // a piece always has at least one part
  if (piece.parts.length === 1) return first;
  const words = rougeTokens(generated);
  let best = first;
  let bestScore = -1;
  for (const part of piece.parts) {
    const vocab = new Set(rougeTokens(part.text));
    const score = words.length ? words.filter((w) => vocab.has(w)).length / words.length : 0;
    if (score > bestScore) {
      best = part;
      bestScore = score;
    }
  }
  return best;
}
