// Marks the sentences of a generated answer that nothing in the notes supports (the answer's `support`,
// from grounding): a private-use character is set where each such sentence ends, before the Markdown is
// parsed, and this plugin turns it into a small `<abbr>` mark the answer view renders.
import type { Element, ElementContent, Root } from 'hast';
import { SKIP, visit } from 'unist-util-visit';

/** Stands for "not found in your notes" between withUnsupportedMarks and rehypeUnsupported (a private-use character). */
const UNSUPPORTED = '\uE05D';

/** The answer's Markdown with a mark after each sentence no source supports (offsets as in `support`). */
export function withUnsupportedMarks(markdown: string, support: readonly { end: number; supported: boolean }[] | undefined): string {
  const ends = (support ?? []).filter((s) => !s.supported && s.end <= markdown.length).map((s) => s.end);
  let out = markdown;
  for (const end of [...new Set(ends)].sort((a, b) => b - a)) out = `${out.slice(0, end)}${UNSUPPORTED}${out.slice(end)}`;
  return out;
}

export function rehypeUnsupported() {
  return (tree: Root) => {
    visit(tree, 'text', (node, index, parent) => {
      if (!parent || index === undefined || !node.value.includes(UNSUPPORTED)) return;
      const parts: ElementContent[] = [];
      node.value.split(UNSUPPORTED).forEach((piece, i) => {
        if (i > 0) parts.push({ type: 'element', tagName: 'abbr', properties: { dataUnsupported: true }, children: [] } satisfies Element);
        if (piece) parts.push({ type: 'text', value: piece });
      });
      parent.children.splice(index, 1, ...parts);
      return [SKIP, index + parts.length];
    });
  };
}
