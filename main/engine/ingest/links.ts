import path from 'node:path';
import { WIKILINK_SOURCE } from '../../contract/shapes/wikilink-syntax.js';

const WIKILINK = new RegExp(WIKILINK_SOURCE, 'g');
/** The same pattern anchored at lastIndex, for a parser that asks "is there a wikilink here?". */
const WIKILINK_HERE = new RegExp(WIKILINK_SOURCE, 'y');
const HASHTAG = /(^|[\s(,;])#([\p{L}\p{N}_][\p{L}\p{N}_\-/]*)/gu;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:|^\/\//i;
const NOTE_LINK_EXT = /\.(md|markdown)$/i;

/** SilverBullet's position in a link (`[[CHANGELOG@123]]`, `[[Page@L12c4]]`): a place in the page, not its name. */
const LINK_POSITION = /@(?:\d+|L\d+(?:c\d+)?)$/;

/** A link target less the position in the page it points at. */
export function withoutLinkPosition(target: string): string {
  return target.replace(LINK_POSITION, '');
}

export interface FoundLink {
  target: string;
  /** Offset of the match inside the scanned text. */
  index: number;
}

export function findWikilinks(text: string): FoundLink[] {
  const out: FoundLink[] = [];
  for (const m of text.matchAll(WIKILINK)) {
    const target = (m[1] ?? '').trim();
    if (target) out.push({ target, index: m.index ?? 0 });
  }
  return out;
}

/** The wikilink starting exactly at `pos`, if one does: its whole text and its target (empty for `[[#heading]]`). */
export function wikilinkAt(text: string, pos: number): { raw: string; target: string } | null {
  WIKILINK_HERE.lastIndex = pos;
  const m = WIKILINK_HERE.exec(text);
  return m ? { raw: m[0], target: (m[1] ?? '').trim() } : null;
}

/** Wikilinks shown as their reader sees them: the alias if there is one, else the target. */
export function replaceWikilinks(text: string): string {
  return text.replace(WIKILINK, (_all, target: string, _anchor: string | undefined, alias: string | undefined) =>
    (alias ?? target).trim(),
  );
}

/** `#tag` words; a tag needs a letter and must not follow a word character (so `a#b` and `#1` are not tags). */
export function findHashtags(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(HASHTAG)) {
    const tag = m[2];
    if (tag && /\p{L}/u.test(tag)) out.push(tag.replace(/[-/]+$/, ''));
  }
  return out;
}

/**
 * A Markdown link's URL as a note path from the root, when it points at a local Markdown file;
 * null for web links, anchors and other files.
 */
export function localNoteTarget(url: string, fromRelPath: string): string | null {
  if (!url || URL_SCHEME.test(url) || url.startsWith('#')) return null;
  let file = url.split(/[?#]/, 1)[0] ?? '';
  try {
    file = decodeURI(file);
  } catch {
    // keep the raw URL when it is not valid percent-encoding
  }
  if (!NOTE_LINK_EXT.test(file)) return null;
  const joined = file.startsWith('/')
    ? path.posix.normalize(file.slice(1))
    : path.posix.normalize(path.posix.join(path.posix.dirname(fromRelPath), file));
  return joined.startsWith('../') ? null : joined;
}
