// A rehype plugin for answers: `[n]` in the text becomes a citation element (`<cite data-n>`) where the
// answer has source n, so the answer's Markdown renders through the same parser as notes and only its
// citation marks are the app's own. Runs after sanitising; code is left as written.
// A bracket the answer escapes (`\[2]`: the extractive answer quotes a note's "[2]", a clipped
// Wikipedia footnote) is the note's text, not a mark: it is hidden from the parser and this plugin as a
// private-use character (hideEscapedBrackets) and shown as written afterwards (rehypeEscapedBrackets).
import type { Element, ElementContent, Root, Text } from 'hast';
import { SKIP, visit } from 'unist-util-visit';

const MARK = /\[(\d+)\]/g;

export function rehypeCitations(options: { known: ReadonlySet<number> }) {
  return (tree: Root) => {
    visit(tree, (node, index, parent) => {
      if (node.type === 'element' && (node.tagName === 'code' || node.tagName === 'pre')) return SKIP;
      if (node.type !== 'text' || !parent || index === undefined) return;
      const parts = citationParts(node, options.known);
      if (!parts) return;
      parent.children.splice(index, 1, ...parts);
      return [SKIP, index + parts.length];
    });
  };
}

function citationParts(node: Text, known: ReadonlySet<number>): ElementContent[] | null {
  const out: ElementContent[] = [];
  let last = 0;
  for (const m of node.value.matchAll(MARK)) {
    const n = Number(m[1]);
    if (!known.has(n)) continue;
    if (m.index > last) out.push({ type: 'text', value: node.value.slice(last, m.index) });
    const cite: Element = { type: 'element', tagName: 'cite', properties: { dataN: n }, children: [{ type: 'text', value: String(n) }] };
    out.push(cite);
    last = m.index + m[0].length;
  }
  if (!out.length) return null;
  if (last < node.value.length) out.push({ type: 'text', value: node.value.slice(last) });
  return out;
}

/** Stands for an escaped `[` between hideEscapedBrackets and rehypeEscapedBrackets (a private-use character). */
const HIDDEN_BRACKET = '\uE05B';

/** The answer's Markdown with each escaped `[` hidden from the citation marks. */
export function hideEscapedBrackets(markdown: string): string {
  return markdown.replaceAll('\\[', HIDDEN_BRACKET);
}

/** Shows hidden brackets as written: `[` in text, `\[` in code (where Markdown reads no escapes). */
export function rehypeEscapedBrackets() {
  return (tree: Root) => {
    const restore = (node: Root | Element, bracket: string) =>
      visit(node, 'text', (text: Text) => {
        text.value = text.value.replaceAll(HIDDEN_BRACKET, bracket);
      });
    visit(tree, 'element', (node: Element) => {
      if (node.tagName !== 'code' && node.tagName !== 'pre') return;
      restore(node, '\\[');
      return SKIP;
    });
    restore(tree, '[');
  };
}
