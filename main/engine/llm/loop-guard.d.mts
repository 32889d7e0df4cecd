/** The offset where a reply starts looping (a repeated line or sentence, or a long run of one character), or -1. */
export function loopStart(text: string): number;
