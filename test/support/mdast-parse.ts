import path from 'node:path';
import type { Nodes, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { toString } from 'mdast-util-to-string';
import { frontmatter } from 'micromark-extension-frontmatter';
import { visit } from 'unist-util-visit';
import { parse as parseYaml } from 'yaml';
import { detectLang } from '../../main/engine/text/lang.js';
import { frontMatterTags, parseNote as parseCurrent } from '../../main/engine/ingest/parse.js';
import type { ParsedNote } from '../../main/engine/types.js';
import { buildChunks, type Block } from '../../main/engine/ingest/chunk.js';
import { LineIndex } from '../../main/engine/ingest/line-index.js';
import { findHashtags, findWikilinks, localNoteTarget, replaceWikilinks } from '../../main/engine/ingest/links.js';

const MARKDOWN_EXT = /\.(md|markdown)$/i;
// Built once: micromark re-combines syntax extensions on every call it is handed new ones.
const MICROMARK_EXTENSIONS = [frontmatter(['yaml'])];
const MDAST_EXTENSIONS = [frontmatterFromMarkdown(['yaml'])];

/** Parses one note as before markdown-it; plain text never went through either Markdown parser, so it is the engine's. */
export function parseNote(relPath: string, content: string): ParsedNote {
  return MARKDOWN_EXT.test(relPath) ? parseMarkdown(relPath, content) : parseCurrent(relPath, content);
}

function fileTitle(relPath: string): string {
  return path.posix.basename(relPath).replace(/\.[^.]+$/, '');
}

function parseMarkdown(relPath: string, content: string): ParsedNote {
  const tree: Root = fromMarkdown(content, { extensions: MICROMARK_EXTENSIONS, mdastExtensions: MDAST_EXTENSIONS });
  const lines = new LineIndex(content);
  const frontMatter = readFrontMatter(tree);
  const fmTitle = typeof frontMatter.title === 'string' && frontMatter.title.trim() ? frontMatter.title.trim() : null;

  // An H1 names the note only when it opens it and is its only H1; otherwise H1s are sections (SilverBullet
  // and many wikis title pages by file name and use H1 for sections).
  const firstContent = tree.children.find((n) => !isSilent(n) && n.type !== 'yaml');
  const h1s = tree.children.filter((n) => n.type === 'heading' && n.depth === 1).length;
  const firstH1 = firstContent?.type === 'heading' && firstContent.depth === 1 && h1s === 1 ? firstContent : undefined;
  const h1Title = firstH1 ? headingText(firstH1) : null;
  const title = fmTitle ?? (h1Title || fileTitle(relPath));

  // The heading that states the title is the mind map's topic, not a route under it.
  const titleHeading = firstH1 && (fmTitle === null || h1Title === fmTitle) ? firstH1 : null;

  const blocks: Block[] = [];
  const headingStack: { depth: number; text: string; line: number }[] = [];
  let section = 0;
  for (const node of tree.children) {
    if (node.type === 'heading') {
      section++;
      if (node === titleHeading) continue;
      while ((headingStack.at(-1)?.depth ?? 0) >= node.depth) headingStack.pop();
      // A heading with no text (only an image, say) still closes the sections below its level.
      const text = headingText(node);
      if (text) headingStack.push({ depth: node.depth, text, line: node.position?.start.line ?? 0 });
      continue;
    }
    if (isSilent(node) || !node.position) continue;
    const { start, end } = node.position;
    if (start.offset === undefined || end.offset === undefined) continue;
    blocks.push({
      start: start.offset,
      end: end.offset,
      headingPath: headingStack.map((h) => h.text),
      headingLine: headingStack.at(-1)?.line ?? null,
      section,
      isCode: node.type === 'code',
      splittable: node.type === 'list' || node.type === 'blockquote' ? childSpans(node) : null,
    });
  }

  return {
    relPath,
    title,
    lang: detectLang(content),
    frontMatter,
    links: collectLinks(tree, content, lines, relPath),
    tags: collectTags(tree, frontMatter),
    chunks: buildChunks(content, lines, blocks),
  };
}

/** Blocks with nothing to read: front matter, link definitions, rules, HTML comments. */
function isSilent(node: RootContent): boolean {
  if (node.type === 'yaml' || node.type === 'definition' || node.type === 'thematicBreak') return true;
  return node.type === 'html' && /^\s*<!--[\s\S]*-->\s*$/.test(node.value);
}

function childSpans(node: Nodes): { start: number; end: number }[] | null {
  if (!('children' in node)) return null;
  const spans: { start: number; end: number }[] = [];
  for (const child of node.children) {
    const s = child.position?.start.offset;
    const e = child.position?.end.offset;
    if (s !== undefined && e !== undefined) spans.push({ start: s, end: e });
  }
  return spans.length > 1 ? spans : null;
}

function headingText(node: Nodes): string {
  return replaceWikilinks(toString(node)).replace(/\s+/g, ' ').trim();
}

function readFrontMatter(tree: Root): Record<string, unknown> {
  const yamlNode = tree.children.find((n) => n.type === 'yaml');
  if (!yamlNode || yamlNode.type !== 'yaml') return {};
  try {
    const data: unknown = parseYaml(yamlNode.value);
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  } catch {
    // Malformed front matter is common in hand-written notes; the body is still worth indexing.
    return {};
  }
}

function collectLinks(tree: Root, content: string, lines: LineIndex, relPath: string): ParsedNote['links'] {
  const links: ParsedNote['links'] = [];
  visit(tree, (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    if (node.type === 'text') {
      // Scan the source rather than node.value, so offsets (and thus lines) are exact even with escapes.
      for (const link of findWikilinks(content.slice(start, end))) {
        links.push({ target: link.target, line: lines.lineOf(start + link.index) });
      }
    } else if (node.type === 'link') {
      const target = localNoteTarget(node.url, relPath);
      if (target) links.push({ target, line: lines.lineOf(start) });
    }
  });
  return links;
}

function collectTags(tree: Root, frontMatter: Record<string, unknown>): string[] {
  const tags = new Set(frontMatterTags(frontMatter));
  visit(tree, 'text', (node) => {
    for (const tag of findHashtags(node.value)) tags.add(tag);
  });
  return [...tags];
}
