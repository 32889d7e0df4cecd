// Where a reply starts going round in circles. A small base model that has said what it can does not end
// its turn: it restates the excerpt again and again, or repeats one character, until the token bound.
// Generation stops at the first sign of that, so the bound is a safety net and not the usual length.
// Plain JavaScript: the model process (worker.mjs) runs it without a TypeScript loader.

/** Lines or sentences this long or longer count when repeated, numbers aside (short ones such as "- Yes" legitimately recur). */
const MIN_UNIT = 12;
/** One character (or a two-character unit) repeated this often in a row is a loop. */
const MIN_RUN = 16;
/** Not global, so `exec` keeps no state between calls; built once, as the guard runs on every streamed chunk. */
const RUN = new RegExp(`([\\p{L}\\p{N}][^\\n]?)\\1{${MIN_RUN - 1},}`, 'u');

/**
 * The offset where a loop begins in `text`, or -1: a complete line or sentence that repeats an earlier one
 * (the cut is at the repeat), or a run of one letter/digit or two-character unit (the cut is where the
 * run starts).
 * @param {string} text
 * @returns {number}
 */
export function loopStart(text) {
  const run = RUN.exec(text);
  const repeat = repeatedUnit(text);
  if (!run) return repeat;
  return repeat < 0 ? run.index : Math.min(run.index, repeat);
}

/**
 * How much of `text` is settled: nothing written after it can make `loopStart` cut before this offset, so
 * a stream may send it. That is the text up to the end of its last complete line or sentence (the one still
 * being written may yet repeat an earlier one), less the tail where a run of one character may be starting
 * (a run not yet long enough to count is under MIN_RUN two-character units).
 * @param {string} text
 * @returns {number}
 */
export function settledEnd(text) {
  let last = 0;
  for (const end of unitEnds(text)) last = end;
  // Counted in code points, as the run's pattern reads them: a letter past the BMP is two UTF-16 units.
  const tail = [...text.slice(-4 * MIN_RUN)].slice(-2 * MIN_RUN).join('').length;
  return Math.min(last, text.length - tail);
}

/** Offset of the first complete line or sentence seen before; the unit still being written is not compared. */
function repeatedUnit(text) {
  const seen = new Set();
  let from = 0;
  for (const end of unitEnds(text)) {
    const unit = text.slice(from, end);
    // Numbers do not make a unit new: "[9] Recipe" after "[8] Recipe" or "- 3:00 pour to 350 g" after
    // "- 2:00 pour to 300 g" is the model counting on, not saying something else.
    const key = unit.trim().toLowerCase().replace(/\d+/g, '#');
    if (key.length >= MIN_UNIT) {
      if (seen.has(key)) return from + (unit.length - unit.trimStart().length);
      seen.add(key);
    }
    from = end;
  }
  return -1;
}

/**
 * The offsets just past each complete line or sentence of `text`: a newline, a full stop (or ! ?) with
 * white space after it, or a Chinese one with anything after it.
 * @param {string} text
 */
function* unitEnds(text) {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '\n' || ('.!?'.includes(c) && next !== undefined && /\s/.test(next)) || ('。！？'.includes(c) && next !== undefined)) yield i + 1;
  }
}
