// Domain types shared across the engine. No Node imports, so the contract (and through it the
// renderer) can import them too. Types that cross the wire are inferred from the zod shapes in
// main/contract/shapes/domain.ts, so a field cannot exist on one side only.
import type { z } from 'zod';
import type * as shape from '../contract/shapes/domain.js';

/** Who produced a derived row: the fast path, or a model id + prompt version (e.g. `llm:stories260K@p1`). */
export type Extractor = string;
export const FAST_EXTRACTOR: Extractor = 'fast';
/**
 * Bump whenever the parser or the fast extractor writes different rows for the same note: an index built
 * by an older version then has its fast-mode notes extracted again on the next run (index/run.ts).
 * 2: sentences no longer end after a title or an initial ("Dr. Amundsen").
 * 3: a lead-in ("Loci runs on:") and its short list items become one fact.
 * 4: a heading and the short list items right under it ("## Requirements", "- Node 20") become one fact.
 * 5: sentences no longer end at a question or exclamation mark glued to the next word ("?resetClient=1").
 * 6: an opening H1 titles the note only when it is the note's only H1 (several are sections); a link's
 *    position in its page (`[[Page@12]]`) is not part of the name it links to.
 * 7: a callout's label (`> [!tip] Title`, `> **note** Note`) is not the start of the sentence under it.
 * 8: a sentence does not end at "e.g.", "i.e." or "vs." ("listen to, e.g. SB_PORT=1234, default is 3000").
 */
export const FAST_PIPELINE_VERSION = 8;

/** A text's script-level language guess (text/lang.ts): how a chunk or sentence is segmented. */
export type Lang = 'en' | 'zh' | 'other';

/** A note whose language cannot be told (too short, no prose): ISO 639-2's code for it. */
export const UNDETERMINED_LANGUAGE = 'und';
/** documents.lang of a note written but not yet judged (ingest/note-language.ts judges it in the graph step). */
export const UNJUDGED_LANGUAGE = '';

export type DocumentStatus = z.infer<typeof shape.documentStatus>;

export type SkipReason = z.infer<typeof shape.skipReason>;

/** A note as parsed from disk, before any extraction. Line numbers are 1-based and inclusive. */
export interface ParsedNote {
  relPath: string;
  title: string;
  /** Its script's language (text/lang.ts), which a model pass's prompts follow; the note's own language is judged after it is written (documents.lang). */
  lang: Lang;
  frontMatter: Record<string, unknown>;
  /** Wikilink / Markdown link targets with the line they occur on. */
  links: { target: string; line: number }[];
  tags: string[];
  chunks: ParsedChunk[];
}

export interface ParsedChunk {
  ord: number;
  /** Headings from the top of the note down to this chunk (not including the note title). */
  headingPath: string[];
  /**
   * The line of the last heading in headingPath (outside the chunk: a heading is its path, not its text),
   * so a fact that reads the heading can cite it. Absent or null when there is no heading.
   */
  headingLine?: number | null;
  text: string;
  lineFrom: number;
  lineTo: number;
  /** True for fenced code blocks: searchable, but not turned into facts. */
  isCode: boolean;
}

/** A fact-checking item (PG-RAG §2.3). `chunkOrd` points into ParsedNote.chunks. */
export interface ExtractedFci {
  chunkOrd: number;
  text: string;
  lineFrom: number;
  lineTo: number;
  checkRouge?: number | null;
  checkSim?: number | null;
  checkPassed?: boolean | null;
}

export type MindMapKind = z.infer<typeof shape.mindMapKind>;

/** A mind-map node as extracted; `children` nest. Facts reference the FCI they stand for by index. */
export interface MindMapNode {
  kind: MindMapKind;
  text: string;
  fciIndex?: number;
  lineFrom?: number;
  lineTo?: number;
  children: MindMapNode[];
}

export interface ExtractedEntity {
  name: string;
  /** Normalised key used to merge the same entity across notes. */
  norm: string;
  type?: string;
  chunkOrd: number;
  lineFrom: number;
  lineTo: number;
}

export interface ExtractedTriple {
  subject: string;
  relation: string;
  object: string;
  chunkOrd: number;
  lineFrom: number;
  lineTo: number;
}

/** Everything one extractor produced for one note. Written to the store in one transaction. */
export interface Extraction {
  extractor: Extractor;
  fcis: ExtractedFci[];
  mindMap: MindMapNode;
  entities: ExtractedEntity[];
  triples: ExtractedTriple[];
}

export type RetrievalMethod = z.infer<typeof shape.retrievalMethod>;
export type RetrievedContext = z.infer<typeof shape.retrievedContext>;
export type IndexCounts = z.infer<typeof shape.indexCounts>;
export type SkippedFile = z.infer<typeof shape.skippedFile>;
export type ReadAsFile = z.infer<typeof shape.readAsFile>;
export type IndexPhase = z.infer<typeof shape.indexPhase>;
export type IndexProgress = z.infer<typeof shape.indexProgress>;
