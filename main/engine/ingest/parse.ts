import { createRequire } from 'node:module';
import path from 'node:path';
import type MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { detectLang } from '../text/lang.js';
import type { ParsedChunk, ParsedNote } from '../types.js';
import { buildChunks, type Block } from './chunk.js';
import { LineIndex } from './line-index.js';
import { findHashtags, findWikilinks, localNoteTarget, replaceWikilinks } from './links.js';
import { wikilinkRule, type WikilinkMeta } from './wikilink-rule.js';

const MARKDOWN_EXT = /\.(md|markdown)$/i;

// markdown-it and yaml are required on the first note parsed, not imported: they take ~50 ms to load,
// which every start of the CLI and the engine paid, index run or not.
const require = createRequire(import.meta.url);

let md: MarkdownIt | null = null;

/**
 * CommonMark (no tables or other extensions, HTML blocks recognised) plus wikilinks. markdown-it parses a
 * folder's notes about twenty times faster than micromark, which was the largest single cost of a fast
 * index; its block tokens carry line ranges, which is all a chunk needs.
 */
function markdown(): MarkdownIt {
  if (md) return md;
  const Markdown = require('markdown-it') as typeof MarkdownIt;
  const made = new Markdown('commonmark', { html: true });
  made.inline.ruler.before('link', 'wikilink', wikilinkRule);
  /**
   * Inline tokens carry no positions. The link rule pushes `link_open` with the parser at the link's label,
   * so a push records where the link is; counting line breaks between tokens instead misses those inside a
   * code span (whose text has them as spaces).
   */
  class PositionedState extends made.inline.State {
    override push(...args: Parameters<InstanceType<typeof made.inline.State>['push']>): Token {
      const token = super.push(...args);
      if (token.type === 'link_open') token.meta = { offset: this.pos } satisfies LinkMeta;
      return token;
    }
  }
  made.inline.State = PositionedState;
  md = made;
  return md;
}

/** A link's offset in its block's text (`meta` of a `link_open` token), for the line it starts on. */
interface LinkMeta {
  offset: number;
}

/** YAML front matter: a `---` line first in the note, up to the next `---` line. */
const FRONT_MATTER = /^---[ \t]*\n(?:([\s\S]*?)\n)?---[ \t]*(?:\n|$)/;

/** Parses one note. Never throws on odd content: a note that parses badly still yields its text. */
export function parseNote(relPath: string, content: string): ParsedNote {
  return MARKDOWN_EXT.test(relPath) ? parseMarkdown(relPath, content) : parsePlainText(relPath, content);
}

function fileTitle(relPath: string): string {
  return path.posix.basename(relPath).replace(/\.[^.]+$/, '');
}

function parseMarkdown(relPath: string, content: string): ParsedNote {
  // markdown-it turns every CR into a line break, which would shift its line numbers from LineIndex's
  // (which counts '\n' only); a space keeps every offset. Notes read from disk have none (read.ts).
  let src = content.includes('\r') ? content.replace(/\r/g, ' ') : content;
  const fm = FRONT_MATTER.exec(src);
  // The front matter is blanked rather than cut, so offsets and line numbers stay the note's own.
  if (fm) src = fm[0].replace(/[^\n]/g, ' ') + src.slice(fm[0].length);
  const frontMatter = fm ? readFrontMatter(fm[1] ?? '') : {};
  const tokens = markdown().parse(src, {});
  const lines = new LineIndex(content);
  const fmTitle = typeof frontMatter.title === 'string' && frontMatter.title.trim() ? frontMatter.title.trim() : null;

  // An H1 names the note only when it opens it and is its only H1. SilverBullet and many wikis title pages
  // by file name and use H1 for sections: after body text, or as one of several ("# Context",
  // "# Decision", "# Consequences" in an architecture decision record, "# Introduction" opening a manual).
  const firstContent = tokens.findIndex((t) => t.level === 0 && t.nesting !== -1 && !isSilent(t));
  const opensWithH1 = tokens[firstContent]?.type === 'heading_open' && tokens[firstContent]?.tag === 'h1';
  const firstH1 = opensWithH1 && !tokens.some((t, i) => i > firstContent && t.level === 0 && t.type === 'heading_open' && t.tag === 'h1') ? firstContent : -1;
  const h1Title = firstH1 >= 0 ? headingText(tokens[firstH1 + 1]) : null;
  const title = fmTitle ?? (h1Title || fileTitle(relPath));

  // The heading that states the title is the mind map's topic, not a route under it.
  const titleHeading = firstH1 >= 0 && (fmTitle === null || h1Title === fmTitle) ? firstH1 : -1;

  const blocks: Block[] = [];
  const headingStack: { depth: number; text: string; line: number }[] = [];
  let section = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.level !== 0 || token.nesting === -1) continue;
    if (token.type === 'heading_open') {
      section++;
      if (i === titleHeading) continue;
      const depth = Number(token.tag.slice(1));
      while ((headingStack.at(-1)?.depth ?? 0) >= depth) headingStack.pop();
      // A heading with no text (only an image, say) still closes the sections below its level.
      const text = headingText(tokens[i + 1]);
      if (text) headingStack.push({ depth, text, line: (token.map?.[0] ?? 0) + 1 });
      continue;
    }
    if (isSilent(token) || !token.map) continue;
    const isCode = token.type === 'fence' || token.type === 'code_block';
    blocks.push({
      // Indented code and HTML keep their indentation, as micromark's positions did.
      start: token.type === 'code_block' || token.type === 'html_block' ? lines.startOf(token.map[0] + 1) : firstTextOf(src, lines, token.map[0]),
      end: blockEnd(src, lines, token.map),
      headingPath: headingStack.map((h) => h.text),
      headingLine: headingStack.at(-1)?.line ?? null,
      section,
      isCode,
      splittable: token.nesting === 1 ? childSpans(tokens, i, src, lines) : null,
    });
  }

  return {
    relPath,
    title,
    lang: detectLang(content),
    frontMatter,
    links: collectLinks(tokens, relPath),
    tags: collectTags(tokens, frontMatter),
    chunks: buildChunks(content, lines, blocks),
  };
}

/** Blocks with nothing to read: rules and HTML comments (link definitions and front matter make no token). */
function isSilent(token: Token): boolean {
  if (token.type === 'hr') return true;
  return token.type === 'html_block' && /^\s*<!--[\s\S]*-->\s*$/.test(token.content);
}

/** Offset of a 0-based line's first non-blank character, past `depth` blockquote markers. */
function firstTextOf(src: string, lines: LineIndex, line: number, quoteDepth = 0): number {
  let at = lines.startOf(line + 1);
  const skipBlanks = () => {
    while (src[at] === ' ' || src[at] === '\t') at++;
  };
  skipBlanks();
  for (let q = 0; q < quoteDepth && src[at] === '>'; q++) {
    at++;
    skipBlanks();
  }
  return at;
}

/** End of the last line of a block's 0-based [from, to) range that is not blank (a list item's map takes the blank lines after it). */
function blockEnd(src: string, lines: LineIndex, map: [number, number]): number {
  for (let line = map[1] - 1; line > map[0]; line--) {
    const start = lines.startOf(line + 1);
    const end = lineEnd(src, start);
    if (src.slice(start, end).trim()) return end;
  }
  return lineEnd(src, lines.startOf(map[0] + 1));
}

function lineEnd(src: string, from: number): number {
  const nl = src.indexOf('\n', from);
  return nl === -1 ? src.length : nl;
}

/** Spans of a list's items or a blockquote's blocks, to split the block at when it is too long. */
function childSpans(tokens: Token[], open: number, src: string, lines: LineIndex): { start: number; end: number }[] | null {
  const parent = tokens[open]!;
  const quoted = parent.type === 'blockquote_open' ? 1 : 0;
  const spans: { start: number; end: number }[] = [];
  for (let i = open + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.level === parent.level && t.nesting === -1) break;
    if (t.level !== parent.level + 1 || t.nesting === -1 || !t.map) continue;
    spans.push({ start: firstTextOf(src, lines, t.map[0], quoted), end: blockEnd(src, lines, t.map) });
  }
  return spans.length > 1 ? spans : null;
}

/** A heading's text as read: wikilinks by their alias or target, images by their alt text. */
function headingText(inline: Token | undefined): string {
  return replaceWikilinks(plainText(inline?.children ?? [])).replace(/\s+/g, ' ').trim();
}

function plainText(children: Token[]): string {
  let out = '';
  for (const t of children) {
    if (t.type === 'softbreak') out += '\n';
    else if (t.type === 'image') out += plainText(t.children ?? []);
    else if (t.type === 'text' || t.type === 'wikilink' || t.type === 'code_inline' || t.type === 'html_inline') out += t.content;
  }
  return out;
}

function readFrontMatter(yamlText: string): Record<string, unknown> {
  try {
    const data: unknown = (require('yaml') as typeof import('yaml')).parse(yamlText);
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  } catch {
    // Malformed front matter is common in hand-written notes; the body is still worth indexing.
    return {};
  }
}

/**
 * Wikilinks (never inside code: the code span or block holds them as its text) and links to local notes,
 * in the order they appear.
 */
function collectLinks(tokens: Token[], relPath: string): ParsedNote['links'] {
  const links: ParsedNote['links'] = [];
  for (const block of tokens) {
    if (block.type !== 'inline' || !block.map || !block.children) continue;
    // The block's text keeps its line breaks (less the blockquote and list markers before its lines).
    const lineAt = (offset: number) => block.map![0] + 1 + countNewlines(block.content.slice(0, offset));
    for (const t of block.children) {
      if (t.type === 'wikilink') {
        const { target, offset } = t.meta as WikilinkMeta;
        if (target) links.push({ target, line: lineAt(offset) });
      } else if (t.type === 'link_open') {
        const target = localNoteTarget(t.attrGet('href') ?? '', relPath);
        if (target) links.push({ target, line: lineAt((t.meta as LinkMeta).offset) });
      }
    }
  }
  return links;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The tags a note's front matter lists (`tags:` or `tag:`, a list or a comma- or space-separated string). */
export function frontMatterTags(frontMatter: Record<string, unknown>): string[] {
  const fmTags = frontMatter.tags ?? frontMatter.tag;
  const list = Array.isArray(fmTags) ? fmTags : typeof fmTags === 'string' ? fmTags.split(/[,\s]+/) : [];
  const tags: string[] = [];
  for (const t of list) {
    if (typeof t === 'string' || typeof t === 'number') {
      const tag = String(t).replace(/^#/, '').trim();
      if (tag) tags.push(tag);
    }
  }
  return tags;
}

/**
 * Other names the front matter gives the note (`aliases:` as Obsidian and SilverBullet write it, `alias:` as
 * Foam does): a list, or a comma-separated string. A name may hold spaces, so only commas split a string.
 */
export function frontMatterAliases(frontMatter: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const value of [frontMatter.aliases, frontMatter.alias]) {
    const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
    for (const a of list) {
      if (typeof a !== 'string' && typeof a !== 'number') continue;
      const name = String(a).trim();
      if (name) out.push(name);
    }
  }
  return out;
}

/**
 * Front-matter tags, then `#tags` of the text outside code. Text is read in runs as a reader sees it
 * between emphasis, links and code, so a tag glued to the end of a wikilink (`[[a]]#b`) is not one.
 */
function collectTags(tokens: Token[], frontMatter: Record<string, unknown>): string[] {
  const tags = new Set(frontMatterTags(frontMatter));
  for (const block of tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let run = '';
    const flush = () => {
      if (run) for (const tag of findHashtags(run)) tags.add(tag);
      run = '';
    };
    for (const t of block.children) {
      if (t.type === 'text' || t.type === 'wikilink') run += t.content;
      else if (t.type === 'softbreak') run += '\n';
      else flush();
    }
    flush();
  }
  return [...tags];
}

/** Plain text: paragraphs are the blocks, separated by blank lines; wikilinks and #tags still count. */
function parsePlainText(relPath: string, content: string): ParsedNote {
  const lines = new LineIndex(content);
  const blocks: Block[] = [];
  for (const m of content.matchAll(/[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*/g)) {
    const start = m.index ?? 0;
    blocks.push({ start, end: start + m[0].length, headingPath: [], headingLine: null, section: 0, isCode: false, splittable: null });
  }
  const links = findWikilinks(content).map((l) => ({ target: l.target, line: lines.lineOf(l.index) }));
  const chunks: ParsedChunk[] = buildChunks(content, lines, blocks);
  return {
    relPath,
    title: fileTitle(relPath),
    lang: detectLang(content),
    frontMatter: {},
    links,
    tags: [...new Set(findHashtags(content))],
    chunks,
  };
}
