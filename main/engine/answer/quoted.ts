// A fact quoted as its note writes it. A fact's text is plain ("Commit the fix with git commit --fixup
// <SHA>"): shown as is, a command loses its code span, a link shows as its label only, and what looks like
// markup ("<SHA>") had to be escaped or was lost. So the fact is found in its lines as written and quoted
// from their inline Markdown: code spans stay code (with "<SHA>" inside them), links stay links, emphasis
// stays; raw HTML is shown as text. When the fact cannot be found in its lines, null: the caller shows
// the plain text.
import type Token from 'markdown-it/lib/token.mjs';
import type { PhrasingContent } from 'mdast';
import { noteMarkdown } from './note-markdown.js';

/** A leaf of the inline tree with what it shows as plain text. */
interface Leaf {
  node: PhrasingContent;
  plain: string;
}

type Parent = { children: PhrasingContent[] };

/** The inline content of the lines as mdast phrasing, and its leaves in order. */
function inlineTree(raw: string): { root: Parent; leaves: Leaf[] } {
  const root: Parent = { children: [] };
  const leaves: Leaf[] = [];
  const stack: Parent[] = [root];
  const top = () => stack[stack.length - 1]!;
  const leaf = (node: PhrasingContent, plain: string) => {
    top().children.push(node);
    leaves.push({ node, plain });
  };
  const open = (node: PhrasingContent & Parent) => {
    top().children.push(node);
    stack.push(node);
  };
  for (const block of noteMarkdown().parse(raw, {})) {
    if (block.type !== 'inline') continue;
    if (root.children.length) leaf({ type: 'text', value: ' ' }, ' ');
    for (const t of block.children ?? []) inlineToken(t, { leaf, open, close: () => stack.length > 1 && stack.pop() });
  }
  return { root, leaves };
}

function inlineToken(t: Token, b: { leaf: (n: PhrasingContent, plain: string) => void; open: (n: PhrasingContent & Parent) => void; close: () => unknown }): void {
  switch (t.type) {
    case 'text':
      return b.leaf({ type: 'text', value: t.content }, t.content);
    case 'code_inline':
      return b.leaf({ type: 'inlineCode', value: t.content }, t.content);
    case 'softbreak':
    case 'hardbreak':
      return b.leaf({ type: 'text', value: ' ' }, ' ');
    // Raw HTML reads as the text it is written as; a wikilink as its label, as the fact reads it.
    case 'html_inline':
      return b.leaf({ type: 'text', value: t.content }, t.content);
    case 'wikilink': {
      const label = t.content.replace(/^!?\[\[|\]\]$/g, '').split('|').pop()!;
      return b.leaf({ type: 'text', value: label }, label);
    }
    case 'image':
      return b.leaf({ type: 'text', value: t.content }, t.content);
    case 'link_open':
      return b.open({ type: 'link', url: t.attrGet('href') ?? '', title: t.attrGet('title'), children: [] });
    case 'strong_open':
      return b.open({ type: 'strong', children: [] });
    case 'em_open':
      return b.open({ type: 'emphasis', children: [] });
    case 'link_close':
    case 'strong_close':
    case 'em_close':
      b.close();
      return;
    default:
      if (t.content) b.leaf({ type: 'text', value: t.content }, t.content);
  }
}

const isWord = (c: string) => /[\p{L}\p{N}]/u.test(c);

/**
 * The fact as written in `raw` (its lines in the note), as phrasing: the leaves the fact covers, a text
 * leaf cut where the fact starts and ends, a code span or a link whole. Null when the fact's letters and
 * digits do not occur in the lines in that order, or when the lines hold no markup worth keeping.
 */
export function quotedFact(fact: string, raw: string): PhrasingContent[] | null {
  // A table row's fact joins its cells with commas; quoted, it would show the row's pipes.
  if (!/[`[*_<]/.test(raw) || /^\s*\|/.test(raw)) return null;
  const { root, leaves } = inlineTree(raw);
  // The letters and digits of the leaves, each with its leaf and its place in the leaf's text.
  const at: { leaf: number; offset: number }[] = [];
  let letters = '';
  leaves.forEach((l, i) => {
    for (let o = 0; o < l.plain.length; o++) {
      if (!isWord(l.plain[o]!)) continue;
      letters += l.plain[o]!.toLowerCase();
      at.push({ leaf: i, offset: o });
    }
  });
  const wanted = [...fact].filter(isWord).join('').toLowerCase();
  const start = wanted ? letters.indexOf(wanted) : -1;
  if (start < 0) return null;
  const first = at[start]!;
  const last = at[start + wanted.length - 1]!;
  // The fact's text after its last letter (a closing period, a colon) stays with it.
  const tail = fact.slice(fact.search(/[^\p{L}\p{N}]*$/u));
  const kept = new Map<PhrasingContent, PhrasingContent>();
  // The tail may stand in the text after a code span or a link the fact ends in ("marks it `fixup`.").
  const next = leaves[last.leaf + 1];
  const endLeaf = leaves[last.leaf]!;
  const tailInLast = endLeaf.node.type === 'text' && endLeaf.plain.slice(last.offset + 1).startsWith(tail);
  if (tail && !tailInLast && next?.node.type === 'text' && next.plain.startsWith(tail.trim())) {
    kept.set(next.node, { type: 'text', value: tail.trim() });
  }
  leaves.forEach((l, i) => {
    if (i < first.leaf || i > last.leaf) return;
    if (l.node.type !== 'text') return kept.set(l.node, l.node);
    const from = i === first.leaf ? first.offset : 0;
    let to = i === last.leaf ? last.offset + 1 : l.plain.length;
    if (i === last.leaf && tail && l.plain.slice(to).startsWith(tail)) to += tail.length;
    kept.set(l.node, { type: 'text', value: l.plain.slice(from, to) });
  });
  const out = pruned(root.children, kept);
  if (!out.some((n) => n.type !== 'text')) return null;
  return out;
}

/** The tree with only the kept leaves (text leaves replaced by their cut), containers that keep none left out. */
function pruned(children: PhrasingContent[], kept: Map<PhrasingContent, PhrasingContent>): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (const n of children) {
    if ('children' in n) {
      const inner = pruned(n.children as PhrasingContent[], kept);
      if (inner.length) out.push({ ...n, children: inner } as PhrasingContent);
    } else {
      const k = kept.get(n);
      if (k) out.push(k);
    }
  }
  return out;
}
