// `[[target|alias]]` in a note's text becomes a link the note viewer resolves (through the engine's
// notes.links, as the graph resolves links); text in code is left alone (code nodes are not text nodes).
import type { Link, Parent, Root, Text } from 'mdast';
import { WIKILINK_SOURCE } from '../../../main/contract/shapes/wikilink-syntax.js';

/** The href a wikilink gets: a fragment (sanitizing keeps it) naming its target. */
export const WIKILINK_HREF = '#wikilink=';

export function remarkWikilinks() {
  return (tree: Root) => walk(tree);
}

function walk(node: Parent): void {
  for (let i = 0; i < node.children.length; i++) {
    const child = node.children[i]!;
    if (child.type === 'text') {
      const parts = split(child);
      if (parts) {
        node.children.splice(i, 1, ...parts);
        i += parts.length - 1;
      }
    } else if ('children' in child && child.type !== 'link') walk(child);
  }
}

function split(text: Text): (Text | Link)[] | null {
  const re = new RegExp(WIKILINK_SOURCE, 'g');
  const out: (Text | Link)[] = [];
  let last = 0;
  for (const m of text.value.matchAll(re)) {
    const target = (m[1] ?? '').trim();
    if (!target || m[0].startsWith('!')) continue;
    const at = m.index ?? 0;
    if (at > last) out.push({ type: 'text', value: text.value.slice(last, at) });
    const shown = (m[3] ?? '').trim() || target + (m[2] ?? '');
    out.push({ type: 'link', url: `${WIKILINK_HREF}${encodeURIComponent(target)}`, children: [{ type: 'text', value: shown }] });
    last = at + m[0].length;
  }
  if (!out.length) return null;
  if (last < text.value.length) out.push({ type: 'text', value: text.value.slice(last) });
  return out;
}
