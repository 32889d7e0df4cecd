// Domain types shared across the engine. Pure types: no runtime code, no imports of Node APIs,
// so the contract (and through it the renderer) can import them too.

/** Who produced a derived row: the fast path, or a model id + prompt version (e.g. `llm:stories260K@p1`). */
export type Extractor = string;
export const FAST_EXTRACTOR: Extractor = 'fast';

export type Lang = 'en' | 'zh' | 'other';

export type DocumentStatus = 'indexed' | 'skipped' | 'error';

export type SkipReason = 'binary' | 'too-large' | 'unreadable' | 'invalid-utf8' | 'empty' | 'unsupported';

/** A note as parsed from disk, before any extraction. Line numbers are 1-based and inclusive. */
export interface ParsedNote {
  relPath: string;
  title: string;
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

export type MindMapKind = 'topic' | 'route' | 'fact';

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

export type RetrievalMethod = 'bm25' | 'dense' | 'hybrid' | 'hig' | 'pgr' | 'ppr' | 'loci';

/** One retrieved context with its provenance. */
export interface RetrievedContext {
  text: string;
  docId: number;
  docPath: string;
  docTitle: string;
  lineFrom: number;
  lineTo: number;
  /** `Topic › Route › … › Fact`, when the context is a fact path. */
  factPath: string | null;
  score: number;
  /** Which table the context came from. */
  kind: 'chunk' | 'fci' | 'fact-path' | 'triple';
  /** The chunk the context lies in, when known. */
  chunkId?: number;
}

export interface IndexCounts {
  documents: number;
  chunks: number;
  fcis: number;
  mindMapNodes: number;
  entities: number;
  triples: number;
  docEdges: number;
  superNodes: number;
  skipped: number;
}

export interface SkippedFile {
  relPath: string;
  reason: SkipReason;
  detail: string;
}

export type IndexPhase = 'scan' | 'parse' | 'extract' | 'embed' | 'graph' | 'llm' | 'done';

export interface IndexProgress {
  phase: IndexPhase;
  done: number;
  total: number;
  /** Seconds left, when it can be estimated. */
  etaSeconds: number | null;
  current?: string;
}
