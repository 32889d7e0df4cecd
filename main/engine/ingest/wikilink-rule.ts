import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { wikilinkAt } from './links.js';

/** What a `wikilink` token carries: its target ('' for `[[#heading]]`) and its offset in the block's text. */
export interface WikilinkMeta {
  target: string;
  offset: number;
}

/**
 * markdown-it inline rule: `[[…]]` becomes one `wikilink` token holding its source text. Run before the
 * link rule, so a wikilink is never read as nested link brackets; code spans, HTML and autolinks are
 * consumed by their own rules before this one sees their `[`, so a wikilink in code is never found.
 */
export function wikilinkRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */ || state.src.charCodeAt(state.pos + 1) !== 0x5b) return false;
  const found = wikilinkAt(state.src, state.pos);
  if (!found || state.pos + found.raw.length > state.posMax) return false;
  if (!silent) {
    const token = state.push('wikilink', '', 0);
    token.content = found.raw;
    token.meta = { target: found.target, offset: state.pos } satisfies WikilinkMeta;
  }
  state.pos += found.raw.length;
  return true;
}
