import chardet from 'chardet';
import iconv from 'iconv-lite';
import type { SkipReason } from '../types.js';

export type Decoded =
  | { ok: true; text: string; readAs: ReadAs | null }
  /** Not text, or text whose encoding cannot be told. */
  | { ok: false; reason: SkipReason; detail: string };

/** How a note that is not clean UTF-8 was read: the encoding used, and what the user should know. */
export interface ReadAs {
  encoding: string;
  detail: string;
}

const SNIFF_BYTES = 8000;
/** Enough of a file for chardet to tell its encoding: all of a 5 MB note takes it 1.5 s, 64 KB 40 ms. */
const DETECT_BYTES = 64 * 1024;
/**
 * Below this chardet confidence (0–100) a guess is not used. Short Western notes score 40–60 for the
 * right code page, Chinese, Japanese and Korean text 100; bytes that are no text score 20–30.
 */
const MIN_CONFIDENCE = 30;

const BOMS: { bytes: number[]; encoding: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/**
 * A note's bytes as text. UTF-8 is the rule; a byte-order mark says UTF-16 (Windows Notepad's
 * "Unicode"); a file in a legacy code page (GBK or Big5 Chinese, Shift_JIS, Windows-1252, KOI8-R…) is
 * read in the encoding chardet finds, rather than skipped, and says so. A mostly-UTF-8 file with a few
 * stray bytes stays UTF-8, the stray bytes shown as U+FFFD: read as a code page, every one of its
 * correct characters would turn into two wrong ones.
 */
export function decodeNote(bytes: Uint8Array): Decoded {
  const bom = BOMS.find((b) => b.bytes.every((x, i) => bytes[i] === x));
  if (bom && bom.encoding !== 'utf-8') {
    return { ok: true, text: iconv.decode(Buffer.from(bytes), bom.encoding), readAs: { encoding: bom.encoding.toUpperCase(), detail: 'byte-order mark' } };
  }
  const binaryHint = sniffBinary(bytes);
  if (binaryHint) return { ok: false, reason: 'binary', detail: binaryHint };
  try {
    // fatal: a bad sequence means another encoding, not U+FFFD; the decoder drops a leading BOM.
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), readAs: null };
  } catch {
    // Not UTF-8 throughout: which encoding, below.
  }
  const lenient = new TextDecoder('utf-8').decode(bytes);
  const { replaced, wide } = utf8Damage(lenient);
  if (wide > replaced) {
    return { ok: true, text: lenient, readAs: { encoding: 'UTF-8', detail: `${replaced === 1 ? 'one sequence that is' : `${replaced} sequences that are`} not UTF-8, shown as �` } };
  }
  const guesses = chardet.analyse(bytes.subarray(0, DETECT_BYTES));
  // UTF-16 and UTF-32 without a byte-order mark would have shown NULs: such a guess here is wrong.
  const best = guesses.find((g) => g.confidence >= MIN_CONFIDENCE && !g.name.startsWith('UTF-') && iconv.encodingExists(decoderFor(g.name)));
  if (!best) {
    const top = guesses.find((g) => !g.name.startsWith('UTF-'));
    const hint = top ? ` (best guess ${top.name}, ${top.confidence}% sure)` : '';
    return { ok: false, reason: 'invalid-utf8', detail: `not UTF-8, and its encoding could not be told${hint}` };
  }
  const encoding = decoderFor(best.name);
  return {
    ok: true,
    text: iconv.decode(Buffer.from(bytes), encoding),
    readAs: { encoding, detail: `not UTF-8; its bytes look like ${best.name}, ${best.confidence}% sure` },
  };
}

/** ISO-8859-1 is what chardet says for Western text; files so labelled are Windows-1252 in practice (as browsers read them). */
function decoderFor(name: string): string {
  return name === 'ISO-8859-1' ? 'windows-1252' : name;
}

/** How many characters the lenient decoder replaced, and how many multi-byte characters it read. */
function utf8Damage(text: string): { replaced: number; wide: number } {
  let replaced = 0;
  let wide = 0;
  for (const ch of text) {
    if (ch === '\uFFFD') replaced++;
    else if (ch.codePointAt(0)! > 0x7f) wide++;
  }
  return { replaced, wide };
}

/** A NUL byte or a high share of control bytes in the first 8 KB means binary, as git and grep judge it. */
function sniffBinary(bytes: Uint8Array): string | null {
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
