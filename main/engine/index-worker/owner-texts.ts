import { mindMapPathText } from '../store/documents.js';
import type { MindMapNode, ParsedNote } from '../types.js';

/**
 * The texts a note's rows are embedded by, built from the prepared note before it is written — the same
 * texts embed/embed-missing.ts reads back from the store (test/index/index-workers.test.ts holds the two
 * to the same vectors), so the vectors can be made in the worker that already holds the words.
 */
export const EMBED_MAX_CHARS = 8000;

/**
 * The title joins the body as a chunk's title joins its text, so a note of one prose passage (a news
 * article, a Wikipedia paragraph, a short note) is embedded by the very text of that passage and its
 * vector is computed once (embed-missing.ts, prepare-note.ts).
 */
export function docText(note: ParsedNote): string {
  const body = note.chunks.filter((c) => !c.isCode).map((c) => c.text);
  return `${note.title} ${body.join('\n')}`.slice(0, EMBED_MAX_CHARS);
}

export function chunkTexts(note: ParsedNote): string[] {
  return note.chunks.map((c) => `${note.title} ${c.text}`.slice(0, EMBED_MAX_CHARS));
}

/** Path texts of the mind map's nodes, depth-first, node before children: the order they are written in. */
export function mindMapTexts(root: MindMapNode): string[] {
  const out: string[] = [];
  const walk = (node: MindMapNode, parentPath: string) => {
    const path = mindMapPathText(parentPath, node.text);
    out.push(path.slice(0, EMBED_MAX_CHARS));
    for (const child of node.children) walk(child, path);
  };
  walk(root, '');
  return out;
}
