// A rehype plugin for the note viewer: tags each rendered block with the source lines it came from
// (data-line / data-line-end) and marks the blocks overlapping the cited lines (data-cited), so a
// citation highlights the rendered Markdown, not only the raw text. Runs after sanitising: it adds
// only data attributes, from the parser's own positions.
import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';

const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'pre', 'blockquote', 'tr', 'hr', 'dt', 'dd']);

export function rehypeSourceLines(options: { from: number | null; to: number | null }) {
  return (tree: Root) => {
    visit(tree, 'element', (node: Element) => {
      const start = node.position?.start.line;
      const end = node.position?.end.line;
      if (!BLOCKS.has(node.tagName) || start === undefined || end === undefined) return;
      node.properties.dataLine = start;
      node.properties.dataLineEnd = end;
      const { from, to } = options;
      if (from !== null && to !== null && start <= to && end >= from) node.properties.dataCited = true;
    });
  };
}

/** YAML front matter is blanked (not removed) so every later line keeps its number. */
export function blankFrontMatter(lines: string[]): { text: string; frontMatter: string[] } {
  if (lines[0]?.trim() !== '---') return { text: lines.join('\n'), frontMatter: [] };
  const close = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (close < 0) return { text: lines.join('\n'), frontMatter: [] };
  return { text: [...lines.slice(0, close + 1).map(() => ''), ...lines.slice(close + 1)].join('\n'), frontMatter: lines.slice(1, close) };
}
