import path from 'node:path';
import { detectLang, hasHan } from '../../text/lang.js';
import { FAST_EXTRACTOR, type ExtractedFci, type Extraction, type ParsedNote } from '../../types.js';
import { chineseKeywords, chineseTriples } from './chinese.js';
import { ExtractionCollector } from './collector.js';
import { analyseSentence } from './english.js';
import { buildMindMap } from './mindmap.js';
import { splitSentences } from './sentences.js';
import { withoutLinkPosition } from '../../ingest/links.js';

/**
 * Fast mode, no model: sentences become FCIs (a lead-in with its list of short items is one), the
 * note's outline (headings, paragraphs, list nesting) becomes the mind map, wink-nlp (English) or jieba
 * keywords (Chinese) give entities and triples, and the note's own structure gives
 * triples that are certainly true (title links to X, title has section Y). Everything carries the chunk
 * and lines it came from.
 */
export function extractFast(note: ParsedNote): Extraction {
  const split = splitSentences(note.chunks);
  const fcis = split.fcis;
  const mindMap = buildMindMap(note, split);
  const out = new ExtractionCollector(note);
  addChineseKeywords(note, out);
  addSentenceFacts(note, split.sentences, out);
  addStructure(note, out);
  return { extractor: FAST_EXTRACTOR, fcis, mindMap, entities: out.entities, triples: out.triples };
}

/** jieba's TF-IDF keywords of each Chinese chunk, each on the first line that holds it. */
function addChineseKeywords(note: ParsedNote, out: ExtractionCollector): void {
  for (const chunk of note.chunks) {
    if (chunk.isCode || detectLang(chunk.text) !== 'zh') continue;
    for (const keyword of chineseKeywords(chunk.text)) {
      // jieba may normalise a keyword away from its spelling in the text; then cite the whole chunk.
      const line = out.lineContaining(chunk, keyword, chunk.lineFrom, chunk.lineTo);
      out.entity(keyword, 'keyword', chunk.ord, line ?? chunk.lineFrom, line ?? chunk.lineTo);
    }
  }
}

/** Entities and triples of each FCI: wink-nlp for English (and other non-Chinese) text, jieba tags for Chinese. */
function addSentenceFacts(note: ParsedNote, fcis: ExtractedFci[], out: ExtractionCollector): void {
  const knownNames = [note.title, ...note.links.map((l) => linkTargetName(l.target))].flatMap(withoutQualifier);
  // The form running text uses: "The Lantern" for a note titled "The Lantern (film)".
  const spokenTitle = withoutQualifier(note.title).pop()!;
  const titleLower = spokenTitle.toLowerCase();
  let previous: { chunkOrd: number; aboutTitle: boolean } | null = null;

  for (const fci of fcis) {
    if (hasHan(fci.text) && detectLang(fci.text) === 'zh') {
      for (const t of chineseTriples(fci.text)) out.triple(t.subject, t.relation, t.object, fci.chunkOrd, fci.lineFrom, fci.lineTo);
      continue;
    }
    // "X is … . It was founded …": a pronoun opening the sentence right after one that opened with
    // the note's title refers to the title. Anything less certain stays unresolved.
    const followsTitle: boolean = previous !== null && previous.chunkOrd === fci.chunkOrd && previous.aboutTitle;
    const startsWithPronoun = /^(it|he|she|they)\b/i.test(fci.text);
    previous = {
      chunkOrd: fci.chunkOrd,
      aboutTitle: fci.text.toLowerCase().startsWith(titleLower) || (followsTitle && startsWithPronoun),
    };
    const { entities, triples } = analyseSentence(fci.text, {
      knownNames,
      pronounSubject: followsTitle ? spokenTitle : null,
    });
    const chunk = out.chunk(fci.chunkOrd);
    for (const e of entities) {
      const line = out.lineContaining(chunk, e.name, fci.lineFrom, fci.lineTo);
      out.entity(e.name, e.type, fci.chunkOrd, line ?? fci.lineFrom, line ?? fci.lineTo);
    }
    for (const t of triples) out.triple(t.subject, t.relation, t.object, fci.chunkOrd, fci.lineFrom, fci.lineTo);
  }
}

/** Title, link targets and headings: entities and triples the note states by its form alone. */
function addStructure(note: ParsedNote, out: ExtractionCollector): void {
  const first = note.chunks[0];
  if (!first) return;
  out.entity(note.title, 'title', first.ord, first.lineFrom, first.lineTo);

  for (const link of note.links) {
    const chunk = out.chunkAtLine(link.line);
    const target = linkTargetName(link.target);
    // The title is about the whole note; its mention sits on the chunk, the link on its own line.
    out.entity(note.title, 'title', chunk.ord, chunk.lineFrom, chunk.lineTo);
    out.entity(target, 'link', chunk.ord, link.line, link.line);
    out.triple(note.title, 'links to', target, chunk.ord, link.line, link.line);
  }

  const seen = new Set<string>();
  for (const chunk of note.chunks) {
    chunk.headingPath.forEach((heading, depth) => {
      const parent = chunk.headingPath[depth - 1] ?? note.title;
      const key = chunk.headingPath.slice(0, depth + 1).join('\u0000');
      if (seen.has(key)) return;
      seen.add(key);
      if (depth === 0) out.entity(note.title, 'title', chunk.ord, chunk.lineFrom, chunk.lineTo);
      out.entity(heading, 'section', chunk.ord, chunk.lineFrom, chunk.lineTo);
      out.triple(parent, 'has section', heading, chunk.ord, chunk.lineFrom, chunk.lineTo);
    });
  }
}

/** "The Prestige (film)" is written "The Prestige" in running text; keep both forms. */
function withoutQualifier(name: string): string[] {
  const bare = name.replace(/\s*\([^)]*\)\s*$/, '').trim();
  return bare && bare !== name ? [name, bare] : [name];
}

/** `folder/Some Note.md` → `Some Note`; a wikilink target is already a name (less a position in the page: `Page@12`). */
function linkTargetName(target: string): string {
  return /\.(md|markdown)$/i.test(target) ? path.posix.basename(target).replace(/\.[^.]+$/, '') : withoutLinkPosition(target);
}
