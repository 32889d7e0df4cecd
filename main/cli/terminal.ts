// Text that reaches the terminal from notes (file names, titles, model output) must not drive it: an
// escape sequence in a file name could clear the screen, a carriage return or newline could forge a
// line such as a citation, a bidi override could reorder what is shown. Every command's human output
// goes through here; JSON output is already escaped by JSON.stringify.

// C0 controls, DEL, C1 controls, and the Unicode bidi embeddings/overrides/isolates.
// eslint-disable-next-line no-control-regex -- matching control characters is this module's purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above, keeping tab and newline
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A value shown inside one line (a path, a title): every control character shown escaped, newlines too. */
export function termField(value: string): string {
  return value.replace(CONTROL, visible);
}

/** A block of output: newlines and tabs are kept (the output's own layout), every other control escaped. */
export function termText(value: string): string {
  return value.replace(CONTROL_BUT_LAYOUT, visible);
}
