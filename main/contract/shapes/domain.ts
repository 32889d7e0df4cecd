// The engine's wire shapes, declared once: engine types are `z.infer` of these (main/engine/types.ts,
// api.ts), and the contract validates payloads with these same objects (main/contract/schemas.ts).
// Pure zod, no Node imports: the contract, hence the renderer, imports this module at run time.
import { z } from 'zod';

/** What joins the labels of a fact path (`Topic › Route › … › Fact`): the engine writes it, the window splits on it. */
export const PATH_SEPARATOR = ' › ';

export const retrievalMethod = z.enum(['bm25', 'dense', 'hybrid', 'hig', 'pgr', 'ppr', 'loci']);
export const mindMapKind = z.enum(['topic', 'route', 'fact']);
export const skipReason = z.enum(['binary', 'too-large', 'unreadable', 'invalid-utf8', 'empty', 'unsupported']);
export const documentStatus = z.enum(['indexed', 'skipped', 'error']);
export const indexPhase = z.enum(['scan', 'parse', 'extract', 'embed', 'graph', 'llm', 'done']);

export const indexCounts = z.object({
  documents: z.number(),
  chunks: z.number(),
  fcis: z.number(),
  mindMapNodes: z.number(),
  entities: z.number(),
  triples: z.number(),
  docEdges: z.number(),
  superNodes: z.number(),
  skipped: z.number(),
});

export const skippedFile = z.object({
  relPath: z.string(),
  reason: skipReason,
  detail: z.string(),
});

/** A note that is not clean UTF-8, read in the encoding its bytes show (a misread one shows wrong letters). */
export const readAsFile = z.object({
  relPath: z.string(),
  encoding: z.string(),
  detail: z.string(),
});

export const indexProgress = z.object({
  phase: indexPhase,
  done: z.number(),
  total: z.number(),
  /** Seconds left, when it can be estimated. */
  etaSeconds: z.number().nullable(),
  current: z.string().optional(),
});

/** What the model pass of one folder job did. */
export const modelPassSummary = z.object({
  extractor: z.string().nullable(),
  refined: z.number(),
  cached: z.number(),
  /** Pieces of the refined notes whose reply an earlier pass kept: not sent to the model again. */
  reusedPieces: z.number(),
  failed: z.number(),
  seconds: z.number(),
  /** Set when the pass could not run at all (e.g. the model failed to load). */
  error: z.string().nullable(),
});

export const indexReport = z.object({
  root: z.string(),
  counts: indexCounts,
  /** Documents (re)processed this run, unchanged ones skipped, and deleted ones removed. */
  changed: z.number(),
  unchanged: z.number(),
  /** Notes found at a new path with the same text and title: their rows, model pass and vectors kept. */
  moved: z.number(),
  removed: z.number(),
  skipped: z.array(skippedFile),
  /** Notes of this run read in another encoding than UTF-8, or with stray bytes. */
  readAs: z.array(readAsFile),
  seconds: z.number(),
  /** The job was cancelled: what finished is kept, the rest waits for the next run. */
  cancelled: z.boolean().optional(),
  /** The model pass of this job (absent in fast mode). */
  model: modelPassSummary.optional(),
});

/** Per-note state in the Library: fast rows, model rows, skipped or failed (with the reason). */
export const noteState = z.enum(['fast', 'model', 'skipped', 'failed']);

/** A library folder with its scope and what is happening to it. */
export const folderSummary = z.object({
  root: z.string(),
  include: z.array(z.string()),
  exclude: z.array(z.string()),
  noteCount: z.number(),
  watching: z.boolean(),
  job: z.enum(['idle', 'fast', 'model', 'graph']),
  /** Why the folder is not indexed or watched (e.g. a system tree saved by an older Loci). */
  problem: z.string().nullable(),
});

/** One retrieved context with its provenance. */
export const retrievedContext = z.object({
  text: z.string(),
  docId: z.number(),
  docPath: z.string(),
  docTitle: z.string(),
  lineFrom: z.number(),
  lineTo: z.number(),
  /** `Topic › Route › … › Fact`, when the context is a fact path. */
  factPath: z.string().nullable(),
  score: z.number(),
  /** Which table the context came from. */
  kind: z.enum(['chunk', 'fci', 'fact-path', 'triple']),
  /** The chunk the context lies in, when known. */
  chunkId: z.number().optional(),
});

export const citation = z.object({
  n: z.number(),
  /** The document's id: tells apart notes with the same relative path in two library folders. */
  docId: z.number().optional(),
  docPath: z.string(),
  docTitle: z.string(),
  lineFrom: z.number(),
  lineTo: z.number(),
  factPath: z.string().nullable(),
  text: z.string(),
});

/** How well the sources support one sentence of a generated answer (answer/grounding.ts). */
export const sentenceSupport = z.object({
  /** The sentence as it stands in the answer's text, its citation marks included. */
  sentence: z.string(),
  /** Its place in the answer's text: text.slice(start, end) === sentence. */
  start: z.number(),
  end: z.number(),
  /** Whether it states anything: a lead-in ("Here is what I found:") needs no source. */
  claim: z.boolean(),
  /** The sources cited for it after grounding (n as in citations). */
  citations: z.array(z.number()),
  /** The sources the model itself cited for it. */
  cited: z.array(z.number()),
  /** How well its best source supports it, 0–1 (word overlap weighted by rarity, with embedding similarity). */
  score: z.number(),
  /** False for a claim no source supports: shown as not found in the notes. */
  supported: z.boolean(),
});

export const answer = z.object({
  question: z.string(),
  /** Markdown; citations appear as `[n]`. */
  text: z.string(),
  /** 'extractive' when no model answered (the text is the top fact paths, labelled as such). */
  mode: z.enum(['extractive', 'generated']),
  model: z.string().nullable(),
  method: retrievalMethod,
  contexts: z.array(retrievedContext),
  /**
   * How the question's words are matched in the contexts, for marking them: Han words as substrings,
   * every other entry as a lowercase prefix at a word start (a Porter stem: "found" for "founder").
   */
  matchKeys: z.array(z.string()),
  citations: z.array(citation),
  /** Whether the contexts seem to answer the question (answer/answerable.ts); false: the text says so and cites the nearest notes. */
  answerable: z.boolean(),
  /** The calibrated score (0–1) the decision is taken from. */
  answerScore: z.number(),
  /** Citations the model wrote to sources it was not given; removed from the text. */
  droppedCitations: z.number(),
  /** A generated answer's sentences, each with the sources that support it (absent for an extractive answer). */
  support: z.array(sentenceSupport).optional(),
  /** What limits this answer for now, e.g. PG-RAG's fact paths half embedded during a switch of embedder. */
  notice: z.string().optional(),
  explanation: z.unknown().optional(),
  chatId: z.number().optional(),
  ms: z.number(),
});

export const chatSummary = z.object({ id: z.number(), title: z.string(), createdAt: z.string() });

export const chatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  citations: z.array(citation),
  /** The passages an answer was drawn from (empty for a question, and for answers saved before they were kept). */
  contexts: z.array(retrievedContext),
  /** How the question's words are matched in them (as answer.matchKeys; empty for a question). */
  matchKeys: z.array(z.string()),
});

const mindMapRelated = z.object({
  superId: z.number(),
  superKind: z.enum(['topic', 'fact']),
  nodeId: z.number(),
  docId: z.number(),
  docPath: z.string(),
  text: z.string(),
  sim: z.number(),
});

export const mindMapView = z.object({
  id: z.number(),
  kind: mindMapKind,
  text: z.string(),
  lineFrom: z.number().nullable(),
  lineTo: z.number().nullable(),
  extractor: z.string(),
  /** Super-node siblings in other notes (cross-note links). */
  related: z.array(mindMapRelated),
  get children(): z.ZodArray<typeof mindMapView> {
    return z.array(mindMapView);
  },
});

export const documentSummary = z.object({
  id: z.number(),
  root: z.string(),
  relPath: z.string(),
  title: z.string(),
  lang: z.string(),
  status: documentStatus,
  error: z.string().nullable(),
  chunks: z.number(),
  fcis: z.number(),
  state: noteState,
  /** Why a note is skipped or failed. */
  reason: z.string().nullable(),
});

export const noteText = z.object({
  docPath: z.string(),
  title: z.string(),
  lines: z.array(z.string()),
});

const noteRef = z.object({ docId: z.number(), docPath: z.string(), title: z.string() });

/** A note's links, each with the note it leads to (null: no note), the notes linking to it, and its tags. */
export const noteLinks = z.object({
  links: z.array(z.object({ target: z.string(), line: z.number(), note: noteRef.nullable() })),
  /** One entry per linking note: its first linking line and how many of its links lead here. */
  backlinks: z.array(noteRef.extend({ line: z.number(), count: z.number() })),
  tags: z.array(z.string()),
});

/** Tags of every note that has any (front matter `tags:` and `#tags`). */
export const noteTags = z.array(z.object({ docId: z.number(), tags: z.array(z.string()) }));

/**
 * A change of embedder (settings): the index is re-embedded for the new one in the background and the
 * new embedder answers once what questions read is embedded, while PG-RAG's fact paths and the
 * pseudo-graph follow (`answering`); or why it failed (the previous one stays, unless it already answered).
 */
export const embedderSwitch = z.object({
  /** The setting's value, and the embedder's id (what the index and Settings name it by). */
  spec: z.string(),
  id: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  progress: indexProgress.nullable(),
  /** Set (running, or failed) once the new embedder answers questions: what is left is for pgr and the pseudo-graph. */
  answering: z.boolean().optional(),
  message: z.string().optional(),
});

export const stats = z.object({
  dbPath: z.string(),
  roots: z.array(z.string()),
  counts: indexCounts,
  embedder: z.string(),
  extractors: z.array(z.object({ extractor: z.string(), documents: z.number() })),
  schemaVersion: z.number(),
  /** Indexed notes by language (ISO 639-1; 'und' when it could not be told), to offer a model that reads them. */
  languages: z.record(z.string(), z.number()),
  /** An embedder switch under way, as its latest event said (a window opened mid-switch shows it at once). */
  switching: embedderSwitch.nullable(),
});

/** What a timed probe of the index run measured for one embedder (see engine/index/estimate.ts). */
export const estimateProbe = z.object({
  /** Loading the embedder, paid once per run. */
  loadSeconds: z.number(),
  /** What the first notes cost beyond their size (lazy set-up, the model's first call), paid once. */
  setupSeconds: z.number(),
  /** The measured run: seconds per byte of note text. */
  secondsPerByte: z.number(),
  /** The sample the probe indexed. */
  sampleNotes: z.number(),
  sampleBytes: z.number(),
  /** Wall time of the whole probe. */
  probeSeconds: z.number(),
});

/** How long indexing the library (or one folder) from scratch in fast mode takes with an embedder, on this machine. */
export const indexEstimate = z.object({
  /** The embedder's spec (the settings' `embedder` value). */
  embedder: z.string(),
  seconds: z.number(),
  /** The library the estimate is for, as scanned now. */
  notes: z.number(),
  bytes: z.number(),
  probe: estimateProbe,
  /** When the probe ran (ISO time); `cached` when this answer reused it. */
  measuredAt: z.string(),
  cached: z.boolean(),
});
