// What `ask` says when its contexts do not answer the question (answerable.ts): that plainly, and the
// nearest notes, cited once each (by their nearest passage) so the window and the CLI can open them — not
// facts quoted as an answer.
import type { Citation } from '../api.js';
import type { RetrievedContext } from '../types.js';
import { markdownText } from './markdown.js';

export const NOT_ANSWERED = "Your notes don't seem to answer this.";
/** The notice on a model's answer to such a question: the model may answer from what it knows instead. */
export const MODEL_NOT_GROUNDED = `${NOT_ANSWERED} The model's answer may not come from them.`;

/** Notes listed as the nearest. */
const NEAREST = 3;

export function notAnswered(contexts: readonly RetrievedContext[]): { text: string; citations: Citation[] } {
  const seen = new Set<string>();
  const citations: Citation[] = [];
  for (const c of contexts) {
    const key = c.docId !== undefined ? `id:${c.docId}` : c.docPath;
    if (seen.has(key)) continue;
    seen.add(key);
    citations.push({ n: citations.length + 1, docId: c.docId, docPath: c.docPath, docTitle: c.docTitle, lineFrom: c.lineFrom, lineTo: c.lineTo, factPath: c.factPath, text: c.text });
    if (citations.length === NEAREST) break;
  }
  if (!citations.length) return { text: NOT_ANSWERED, citations };
  const bullets = citations.map((c) => `- ${markdownText(c.docTitle || c.docPath)} (${markdownText(c.docPath)}) [${c.n}]`);
  return { text: `${NOT_ANSWERED} The nearest notes:\n\n${bullets.join('\n')}`, citations };
}
