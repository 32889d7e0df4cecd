/** The offset where a reply starts looping (a repeated line or sentence, or a long run of one character), or -1. */
export function loopStart(text: string): number;
/** How much of a reply being written a stream may send: no later text can make `loopStart` cut before it. */
export function settledEnd(text: string): number;
