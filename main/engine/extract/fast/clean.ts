import { replaceWikilinks } from '../../ingest/links.js';

/** How a source line relates to its neighbours when sentences are formed. */
export type LineKind = 'blank' | 'start' | 'continue' | 'alone';

export interface CleanLine {
  text: string;
  /**
   * 'start' lines (list items, table rows, headings) never continue the sentence above them; an 'alone'
   * line (a callout's title) is a sentence of its own, which the next line does not continue either.
   */
  kind: LineKind;
}

const QUOTE = /^\s*(?:>\s?)+/;
const BULLET = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
const HEADING = /^\s*#{1,6}\s+/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const RULE = /^\s*(?:[-*_]\s*){3,}$/;
const FENCE = /^\s*(?:```|~~~)/;
/**
 * A callout's first line inside a quote: Obsidian's and GitHub's `[!tip] Title` (`+`/`-`: folded), and
 * SilverBullet's admonition `**note** Note`. The type is a label for the box, not a word of its text.
 */
const CALLOUT = /^\s*\[!([\p{L}\p{N}_-]+)\][+-]?(?:\s+(.*))?$/u;
const ADMONITION = /^\s*\*\*(note|info|tip|hint|important|warning|caution|danger|error|success|check|done|question|help|faq|example|quote|cite|abstract|summary|tldr|todo|failure|fail|bug)\*\*(?:\s+(.*))?$/i;

/** A quote line that is a callout's label: its title alone ('alone'), or nothing when the title only repeats the type. */
function calloutLabel(quoted: string): CleanLine | null {
  const m = CALLOUT.exec(quoted) ?? ADMONITION.exec(quoted);
  if (!m) return null;
  const title = cleanInline(m[2] ?? '');
  return !title || title.toLowerCase() === m[1]!.toLowerCase() ? { text: '', kind: 'blank' } : { text: title, kind: 'alone' };
}

/**
 * Strips Markdown syntax from one source line, keeping the words a reader sees: link text instead of
 * link syntax, no emphasis marks, bullets, quote marks or table pipes.
 */
export function cleanLine(raw: string): CleanLine {
  if (!raw.trim() || RULE.test(raw) || TABLE_RULE.test(raw) || FENCE.test(raw)) return { text: '', kind: 'blank' };
  let line = raw.replace(QUOTE, '');
  if (line !== raw) {
    const label = calloutLabel(line);
    if (label) return label;
  }
  let kind: LineKind = 'continue';
  if (BULLET.test(line) || HEADING.test(line)) {
    kind = 'start';
    line = line.replace(BULLET, '').replace(HEADING, '');
  } else if (/^\s*\|/.test(line)) {
    kind = 'start';
    line = line
      .replace(/^\s*\|/, '')
      .replace(/\|\s*$/, '')
      .split('|')
      .map((cell) => cell.trim())
      .filter(Boolean)
      .join(', ');
  }
  if (!line.trim()) return { text: '', kind: 'blank' };
  return { text: cleanInline(line), kind };
}

/** Columns before a list item's marker (tabs count 4), or null when the line is no list item. */
export function listIndent(raw: string): number | null {
  const line = raw.replace(QUOTE, '');
  if (!BULLET.test(line)) return null;
  const lead = /^\s*/.exec(line)![0];
  return lead.replace(/\t/g, '    ').length;
}

export function cleanInline(text: string): string {
  // Code spans are kept verbatim (minus the backticks): Markdown inside them is not Markdown.
  const parts = text.split(/(`+)([^`]*?)\1/);
  let out = '';
  for (let i = 0; i < parts.length; i += 3) {
    out += cleanProse(parts[i]!);
    if (i + 2 < parts.length) out += parts[i + 2];
  }
  return out.replace(/\s+/g, ' ').trim();
}

function cleanProse(text: string): string {
  return replaceWikilinks(text)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<(https?:\/\/[^>\s]+)>/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/(\*\*|__)(?=\S)([^*_]*?\S)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}*])\*(?=\S)([^*]*?\S)\*(?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/(^|[^\p{L}\p{N}_])_(?=\S)([^_]*?\S)_(?![\p{L}\p{N}])/gu, '$1$2')
    .replace(/~~(?=\S)([^~]*?\S)~~/g, '$1')
    .replace(/==(?=\S)([^=]*?\S)==/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1');
}
