import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { SkipReason } from '../types.js';
import { describeError } from './errors.js';
import { realPathInside } from './contain.js';

export type ReadResult =
  | { ok: true; content: string; hash: string }
  | { ok: false; reason: SkipReason; detail: string };

const SNIFF_BYTES = 8000;

/**
 * Reads a note as UTF-8 text. Returns a reason instead of throwing, because a notes folder always has
 * a few files that are not what their name says. The hash is over the raw bytes, so a change of line
 * endings or BOM alone still counts as a change on disk.
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
  const hash = createHash('sha256').update(bytes).digest('hex');

  const binaryHint = sniffBinary(bytes);
  if (binaryHint) return { ok: false, reason: 'binary', detail: binaryHint };

  let text: string;
  try {
    // fatal: a single bad sequence rejects the file instead of silently becoming U+FFFD;
    // the decoder drops a leading BOM by default.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    return { ok: false, reason: 'invalid-utf8', detail: (err as Error).message };
  }
  if (text.trim() === '') return { ok: false, reason: 'empty', detail: `${bytes.length} bytes of whitespace` };
  return { ok: true, content: normaliseLineEndings(text), hash };
}

/**
 * One line break becomes one '\n', so line N stays line N: CRLF and a lone CR (old Mac files, which
 * editors also show as a line break) both count once.
 */
export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A NUL byte or a high share of control bytes in the first 8 KB means binary, as git and grep judge it. */
function sniffBinary(bytes: Buffer): string | null {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] ?? 0;
    if (b === 0) return `NUL byte at offset ${i}`;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++;
  }
  if (n > 0 && control / n > 0.1) return `${control} control bytes in the first ${n}`;
  return null;
}
