import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { SkipReason } from '../types.js';
import { describeError } from './describe-error.js';
import { realPathInside } from './contain.js';
import { decodeNote, type ReadAs } from './decode.js';

export type NoteContent = { ok: true; content: string; readAs: ReadAs | null } | { ok: false; reason: SkipReason; detail: string };

export type ReadResult = (NoteContent & { ok: false }) | (NoteContent & { ok: true; hash: string });

/**
 * Reads a note as text (UTF-8, or the encoding its bytes show: see decodeNote). Returns a reason instead
 * of throwing, because a notes folder always has a few files that are not what their name says. The hash
 * is over the raw bytes, so a change of line endings, BOM or encoding alone still counts as a change on disk.
 */
export async function readNote(absPath: string, opts: { root?: string } = {}): Promise<ReadResult> {
  let bytes: Buffer;
  try {
    // Checked again at read time, not only at scan time: the file may have become a link meanwhile.
    if (opts.root && !(await realPathInside(opts.root, absPath))) {
      return { ok: false, reason: 'unsupported', detail: 'a link leading outside the library folder (not followed)' };
    }
    bytes = await readFile(absPath);
  } catch (err) {
    return { ok: false, reason: 'unreadable', detail: describeError(err) };
  }
  const note = noteContent(bytes);
  return note.ok ? { ...note, hash: createHash('sha256').update(bytes).digest('hex') } : note;
}

/** A note's bytes as its text, as indexing reads them (encoding, line breaks), or why they are no note. */
export function noteContent(bytes: Uint8Array): NoteContent {
  const decoded = decodeNote(bytes);
  if (!decoded.ok) return decoded;
  if (decoded.text.trim() === '') return { ok: false, reason: 'empty', detail: `${bytes.length} bytes of whitespace` };
  return { ok: true, content: normaliseLineEndings(decoded.text), readAs: decoded.readAs };
}

/**
 * One line break becomes one '\n', so line N stays line N: CRLF and a lone CR (old Mac files, which
 * editors also show as a line break) both count once.
 */
export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
