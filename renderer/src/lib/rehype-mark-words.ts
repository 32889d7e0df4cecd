// A rehype plugin for an answer's passages: marks the question's words where they occur, as the engine
// matches them (answer.matchKeys): a Han key anywhere in the text, any other key as the start of a word,
// the whole word marked ("found" marks "founder"). Runs after sanitising; it adds only <mark> elements.
import type { Element, ElementContent, Root, Text } from 'hast';
import { SKIP, visit } from 'unist-util-visit';

const HAN = /\p{Script=Han}/u;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One pattern for every key, or null when there is nothing to mark. */
export function markPattern(keys: string[]): RegExp | null {
  const parts = keys.filter(Boolean).map((k) => (HAN.test(k) ? escape(k) : `(?<![\\p{L}\\p{N}])${escape(k)}[\\p{L}\\p{N}]*`));
  return parts.length ? new RegExp(parts.join('|'), 'giu') : null;
}

export function rehypeMarkWords(options: { keys: string[] }) {
  const pattern = markPattern(options.keys);
  return (tree: Root) => {
    if (!pattern) return;
    visit(tree, 'text', (node: Text, index, parent: Root | Element | undefined) => {
      if (!parent || index === undefined) return;
      const pieces: ElementContent[] = [];
      let last = 0;
      for (const m of node.value.matchAll(pattern)) {
        if (m.index > last) pieces.push({ type: 'text', value: node.value.slice(last, m.index) });
        pieces.push({ type: 'element', tagName: 'mark', properties: {}, children: [{ type: 'text', value: m[0] }] });
        last = m.index + m[0].length;
      }
      if (pieces.length === 0) return;
      if (last < node.value.length) pieces.push({ type: 'text', value: node.value.slice(last) });
      parent.children.splice(index, 1, ...pieces);
      // Past the pieces just added: the marks' own text is not searched again.
      return [SKIP, index + pieces.length];
    });
  };
}
