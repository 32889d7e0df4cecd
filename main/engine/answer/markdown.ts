// An extractive answer is Markdown (the window renders it with GFM), but the facts in it are plain text
// from the notes: "FOAM_DATE_* variables" in a bold path would end the bold at the star, "~/notes/~" would
// strike through, "<br>" would be read as markup. mdast-util-to-markdown escapes just what Markdown would
// otherwise read, where it would read it.
import type { PhrasingContent } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown } from 'mdast-util-to-markdown';
import { PATH_SEPARATOR } from '../../contract/shapes/domain.js';

const extensions = [gfmToMarkdown()];

/** One line: a bullet's text that broke onto a line of its own would end its bullet. */
function phrasing(children: PhrasingContent[]): string {
  return toMarkdown({ type: 'paragraph', children }, { extensions }).trimEnd().replace(/\s*\n\s*/g, ' ');
}

/** Plain text as Markdown that shows it as written. */
export function markdownText(text: string): string {
  return phrasing([{ type: 'text', value: text }]);
}

/** A fact quoted with its inline Markdown (quoted.ts) as a line of Markdown. */
export function quotedText(quoted: PhrasingContent[]): string {
  return phrasing(quoted);
}

/**
 * A plain lead (where a fact sits in its mind map) and the bold fact after it, as Markdown that shows both as
 * written; the fact as quoted from its note when given (bold inside it is bold already).
 */
export function leadThenBold(lead: string, bold: string, quoted?: PhrasingContent[] | null): string {
  const fact = quoted ? quoted.flatMap((n) => (n.type === 'strong' ? n.children : [n])) : [{ type: 'text' as const, value: bold }];
  return phrasing([...(lead ? [{ type: 'text' as const, value: lead }] : []), { type: 'strong', children: fact }]);
}

/**
 * A cited fact after its mind-map path, the fact in bold ("Docker › Container › **The container binds to
 * port 3000 …**"): with the whole path bold, five bullets were a wall of bold in which the topic repeated
 * five times (a news article's topic is its first sentence) outweighed what answers. A path that does not
 * end with the fact is followed by it after a dash.
 */
export function pathThenFact(path: string, fact: string, quoted?: PhrasingContent[] | null): string {
  if (!path.endsWith(fact)) return leadThenBold(`${path} — `, fact, quoted);
  const lead = path.slice(0, path.length - fact.length);
  if (lead === '' || lead.endsWith(PATH_SEPARATOR)) return leadThenBold(lead, fact, quoted);
  // The fact is the tail of its node's label: the whole label is bold.
  const at = lead.lastIndexOf(PATH_SEPARATOR);
  return at < 0 ? leadThenBold('', path) : leadThenBold(path.slice(0, at + PATH_SEPARATOR.length), path.slice(at + PATH_SEPARATOR.length));
}
