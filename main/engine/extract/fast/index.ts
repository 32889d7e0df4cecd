import path from 'node:path';
import { normaliseEntity } from '../../text/entity-norm.js';
import { detectLang, hasHan } from '../../text/lang.js';
import {
  FAST_EXTRACTOR,
  type ExtractedEntity,
  type ExtractedTriple,
  type Extraction,
  type ParsedChunk,
  type ParsedNote,
} from '../../types.js';
import { chineseKeywords, chineseTriples } from './chinese.js';
import { analyseSentence } from './english.js';
import { buildMindMap } from './mindmap.js';
import { extractSentenceFcis } from './sentences.js';

const MAX_ENTITY_CHARS = 80;

/**
 * Fast mode, no model: sentences become FCIs, the heading outline becomes the mind map, wink-nlp
 * (English) or jieba keywords (Chinese) give entities and triples, and the note's own structure gives
 * triples that are certainly true (title links to X, title has section Y). Everything carries the chunk
 * and lines it came from.
 */
export function extractFast(note: ParsedNote): Extraction {
  const fcis = extractSentenceFcis(note.chunks);
  const mindMap = buildMindMap(note, fcis);
  const out = new ExtractionCollector(note);

  for (const chunk of note.chunks) {
    if (chunk.isCode) continue;
    if (detectLang(chunk.text) === 'zh') {
      for (const keyword of chineseKeywords(chunk.text)) {
        // jieba may normalise a keyword away from its spelling in the text; then cite the whole chunk.
        const line = out.lineContaining(chunk, keyword, chunk.lineFrom, chunk.lineTo);
        out.entity(keyword, 'keyword', chunk.ord, line ?? chunk.lineFrom, line ?? chunk.lineTo);
      }
    }
  }
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
    const chunk = out.chunk(fci.chunkOrd);
    // "X is … . It was founded …": a pronoun opening the sentence right after one that opened with
    // the note's title refers to the title. Anything less certain stays unresolved.
    const followsTitle: boolean = previous !== null && previous.chunkOrd === fci.chunkOrd && previous.aboutTitle;
    const startsWithPronoun = /^(it|he|she|they)\b/i.test(fci.text);
    previous = { chunkOrd: fci.chunkOrd, aboutTitle: fci.text.toLowerCase().startsWith(titleLower) || (followsTitle && startsWithPronoun) };
    const { entities, triples } = analyseSentence(fci.text, {
      knownNames,
      pronounSubject: followsTitle ? spokenTitle : null,
    });
    for (const e of entities) {
      const line = out.lineContaining(chunk, e.name, fci.lineFrom, fci.lineTo);
      out.entity(e.name, e.type, fci.chunkOrd, line ?? fci.lineFrom, line ?? fci.lineTo);
    }
    for (const t of triples) out.triple(t.subject, t.relation, t.object, fci.chunkOrd, fci.lineFrom, fci.lineTo);
  }
  addStructure(note, out);

  return { extractor: FAST_EXTRACTOR, fcis, mindMap, entities: out.entities, triples: out.triples };
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
      const parent = depth === 0 ? note.title : chunk.headingPath[depth - 1];
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

/** `folder/Some Note.md` → `Some Note`; a wikilink target is already a name. */
function linkTargetName(target: string): string {
  return /\.(md|markdown)$/i.test(target) ? path.posix.basename(target).replace(/\.[^.]+$/, '') : target;
}

/** Deduplicates per chunk, and makes sure every triple's subject and object is also an entity. */
class ExtractionCollector {
  readonly entities: ExtractedEntity[] = [];
  readonly triples: ExtractedTriple[] = [];
  private readonly entityKeys = new Set<string>();
  private readonly tripleKeys = new Set<string>();
  private readonly chunkLines = new Map<number, string[]>();

  constructor(private readonly note: ParsedNote) {}

  chunk(ord: number): ParsedChunk {
    return this.note.chunks.find((c) => c.ord === ord) ?? this.note.chunks[0];
  }

  /** The chunk holding a line; a line in a heading (between chunks) belongs to the chunk after it. */
  chunkAtLine(line: number): ParsedChunk {
    return (
      this.note.chunks.find((c) => c.lineFrom <= line && line <= c.lineTo) ??
      this.note.chunks.find((c) => c.lineFrom > line) ??
      this.note.chunks[this.note.chunks.length - 1]
    );
  }

  /** The first line in [from, to] of the chunk whose text mentions `name` (case-insensitive), if any. */
  lineContaining(chunk: ParsedChunk, name: string, from: number, to: number): number | null {
    let lines = this.chunkLines.get(chunk.ord);
    if (!lines) {
      lines = chunk.text.toLowerCase().split('\n');
      this.chunkLines.set(chunk.ord, lines);
    }
    const needle = name.toLowerCase();
    for (let line = Math.max(from, chunk.lineFrom); line <= Math.min(to, chunk.lineTo); line++) {
      if (lines[line - chunk.lineFrom]?.includes(needle)) return line;
    }
    return null;
  }

  entity(name: string, type: string, chunkOrd: number, lineFrom: number, lineTo: number): string | null {
    const clean = name.replace(/\s+/g, ' ').trim();
    const norm = normaliseEntity(clean);
    if (!norm || clean.length > MAX_ENTITY_CHARS) return null;
    const key = `${chunkOrd}\u0000${norm}`;
    if (!this.entityKeys.has(key)) {
      this.entityKeys.add(key);
      this.entities.push({ name: clean, norm, type, chunkOrd, lineFrom, lineTo });
    }
    return norm;
  }

  triple(subject: string, relation: string, object: string, chunkOrd: number, lineFrom: number, lineTo: number): void {
    const s = this.entity(subject, 'phrase', chunkOrd, lineFrom, lineTo);
    const o = this.entity(object, 'phrase', chunkOrd, lineFrom, lineTo);
    if (!s || !o || s === o) return;
    const key = `${chunkOrd}\u0000${s}\u0000${relation}\u0000${o}`;
    if (this.tripleKeys.has(key)) return;
    this.tripleKeys.add(key);
    this.triples.push({ subject: subject.trim(), relation, object: object.trim(), chunkOrd, lineFrom, lineTo });
  }
}
