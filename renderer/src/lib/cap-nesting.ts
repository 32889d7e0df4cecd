// A note's Markdown with its nesting cut before it is parsed: a 2 KB note of `- - - …` nests 1,000
// lists, which overflowed React's stack, and 20,000 levels kept the parser busy for minutes. Each line
// keeps its place (cited line numbers still match); past the cap, extra indentation and extra list or
// quote markers go, so deeper items show as siblings at the deepest level, their text intact (a code
// line indented past the cap loses the extra indentation too).
export const MAX_MARKERS_PER_LINE = 12;
/** Columns of leading indentation kept: 16 levels of two-column list nesting, 8 of four. */
export const MAX_INDENT = 32;
/** The deepest a capped note can nest (indentation's levels, then one line's markers). */
export const MAX_NESTING = MAX_INDENT / 2 + MAX_MARKERS_PER_LINE;

const MARKER = /^(?:>[ \t]?|(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|$))/;

export function capNesting(markdown: string): string {
  // Most notes nest a little: only lines that are deep are rewritten.
  if (!/^[ \t]{9}|(?:(?:>[ \t]?|(?:[-+*]|\d{1,9}[.)])[ \t]+)){13}/m.test(markdown)) return markdown;
  return markdown.split('\n').map(capLine).join('\n');
}

function capLine(line: string): string {
  const indent = /^[ \t]*/.exec(line)![0];
  let rest = line.slice(indent.length);
  const markers: string[] = [];
  for (let m = MARKER.exec(rest); m && m[0]; m = MARKER.exec(rest)) {
    markers.push(m[0]);
    rest = rest.slice(m[0].length);
  }
  return cutIndent(indent) + markers.slice(0, MAX_MARKERS_PER_LINE).join('') + rest;
}

/** The indentation cut to MAX_INDENT columns (a tab counts to the next multiple of four). */
function cutIndent(indent: string): string {
  let columns = 0;
  for (const c of indent) columns = c === '\t' ? columns + 4 - (columns % 4) : columns + 1;
  return columns <= MAX_INDENT ? indent : ' '.repeat(MAX_INDENT);
}
