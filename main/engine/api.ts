// The engine's public surface, as the CLI, the browser-mode server and the Electron engine host use it.
// Types only: the contract (main/contract) mirrors these with runtime schemas for the transports.
import type {
  IndexCounts,
  IndexProgress,
  MindMapKind,
  RetrievalMethod,
  RetrievedContext,
  SkippedFile,
} from './types.js';

export interface IndexOptions {
  /** Called as work advances; cheap to call often. */
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
}

export interface IndexReport {
  root: string;
  counts: IndexCounts;
  /** Documents (re)processed this run, unchanged ones skipped, and deleted ones removed. */
  changed: number;
  unchanged: number;
  removed: number;
  skipped: SkippedFile[];
  seconds: number;
  /** The job was cancelled: what finished is kept, the rest waits for the next run. */
  cancelled?: boolean;
  /** The model pass of this job (absent in fast mode). */
  model?: ModelPassSummary;
}

/** What the model pass of one folder job did. */
export interface ModelPassSummary {
  extractor: string | null;
  refined: number;
  cached: number;
  failed: number;
  seconds: number;
  /** Set when the pass could not run at all (e.g. the model failed to load). */
  error: string | null;
}

/** Per-note state in the Library: fast rows, model rows, skipped or failed (with the reason). */
export type NoteState = 'fast' | 'model' | 'skipped' | 'failed';

/** A library folder with its scope and what is happening to it. */
export interface FolderSummary {
  root: string;
  include: string[];
  exclude: string[];
  noteCount: number;
  watching: boolean;
  job: 'idle' | 'fast' | 'model' | 'graph';
  /** Why the folder is not indexed or watched (e.g. a system tree saved by an older Loci). */
  problem: string | null;
}

export interface AskOptions {
  method?: RetrievalMethod;
  k?: number;
  /** Include the retrieval's explanation (seeds, walks, neighbours) in the answer. */
  explain?: boolean;
  signal?: AbortSignal;
  /** Streamed answer tokens, when a model answers. */
  onToken?: (token: string) => void;
  chatId?: number;
}

export interface Citation {
  n: number;
  /** The document's id: tells apart notes with the same relative path in two library folders. */
  docId?: number;
  docPath: string;
  docTitle: string;
  lineFrom: number;
  lineTo: number;
  factPath: string | null;
  text: string;
}

export interface Answer {
  question: string;
  /** Markdown; citations appear as `[n]`. */
  text: string;
  /** 'extractive' when no model answered (the text is the top fact paths, labelled as such). */
  mode: 'extractive' | 'generated';
  model: string | null;
  method: RetrievalMethod;
  contexts: RetrievedContext[];
  citations: Citation[];
  /** Citations the model wrote to sources it was not given; removed from the text. */
  droppedCitations: number;
  explanation?: unknown;
  chatId?: number;
  ms: number;
}

export interface MindMapView {
  id: number;
  kind: MindMapKind;
  text: string;
  lineFrom: number | null;
  lineTo: number | null;
  extractor: string;
  /** Super-node siblings in other notes (cross-note links). */
  related: { superId: number; superKind: 'topic' | 'fact'; nodeId: number; docId: number; docPath: string; text: string; sim: number }[];
  children: MindMapView[];
}

export interface DocumentSummary {
  id: number;
  root: string;
  relPath: string;
  title: string;
  lang: string;
  status: 'indexed' | 'skipped' | 'error';
  error: string | null;
  chunks: number;
  fcis: number;
  state: NoteState;
  /** Why a note is skipped or failed. */
  reason: string | null;
}

export interface NoteText {
  docPath: string;
  title: string;
  lines: string[];
}

export interface GraphView {
  nodes: { id: string; kind: 'doc' | 'entity' | 'super-topic'; label: string; docId?: number; docPath?: string; weight: number }[];
  links: { source: string; target: string; kind: 'similar' | 'mentions' | 'super-topic'; weight: number }[];
}

export interface Stats {
  dbPath: string;
  roots: string[];
  counts: IndexCounts;
  embedder: string;
  extractors: { extractor: string; documents: number }[];
  schemaVersion: number;
}
