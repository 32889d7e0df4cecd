// markdown-it as the indexer reads notes (CommonMark, HTML recognised, wikilinks), for reading a note's
// lines as written at answer time. Required on first use, as the indexer does: it takes ~50 ms to load.
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import { wikilinkRule } from '../ingest/wikilink-rule.js';

const require = createRequire(import.meta.url);
let md: MarkdownIt | null = null;

export function noteMarkdown(): MarkdownIt {
  if (md) return md;
  const Markdown = require('markdown-it') as typeof MarkdownIt;
  md = new Markdown('commonmark', { html: true });
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  return md;
}
