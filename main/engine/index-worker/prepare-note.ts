import { parseNote } from '../ingest/parse.js';
import { extractFast } from '../extract/fast/index.js';
import { segmentForIndex } from '../text/segment.js';
import type { Extraction, ParsedNote, SkipReason } from '../types.js';
import { readNote, type ReadResult } from '../ingest/read.js';
import type { ReadAs } from '../ingest/decode.js';
import { createStaticEmbedder, type StaticEmbedder } from '../embed/static-embedder.js';
import { composeNoteVectors } from './compose-vectors.js';
import type { Embedder } from '../embed/embedder.js';
import { chunkTexts, docText, EMBED_MAX_CHARS, mindMapTexts } from './owner-texts.js';
import { embedOnce } from '../embed/embed-once.js';

/**
 * One note to prepare: its text — or the file to read it from (inside `root`), read and hashed in the
 * worker so the writer's thread does not — and a title that overrides the parsed one (benchmarks'
 * pooled paragraphs).
 */
export interface NoteInput {
  relPath: string;
  content?: string;
  file?: { absPath: string; root: string };
  title?: string;
}

/**
 * Everything about a note that needs no database: parsed, extracted, and its full-text rows segmented
 * once. Plain data, so it crosses from a worker thread to the writer by structured clone.
 */
export interface PreparedNote {
  note: ParsedNote;
  extraction: Extraction;
  /** FTS text per chunk (title, headings and text), in chunk order. */
  chunkSeg: string[];
  /** Vectors of the note's own rows, when the task asked for the built-in embedder's. */
  vectors: NoteVectors | null;
  /** Milliseconds spent reading, parsing, extracting (segmentation included) and embedding, for `loci bench-index`. */
  ms: { read: number; parse: number; extract: number; embed: number };
  /** sha256 of the file's bytes, when the note was read from a file here. */
  hash: string | null;
  /** How the file was read when it is not clean UTF-8. */
  readAs: ReadAs | null;
}

/** Per kind, in write order: the document, its chunks, its FCIs, its mind-map nodes (depth-first). */
export interface NoteVectors {
  model: string;
  doc: Float32Array;
  chunks: Float32Array[];
  fcis: Float32Array[];
  mm: Float32Array[];
}

export interface PrepareTask {
  inputs: NoteInput[];
  /** The built-in embedder's id when the engine uses it: the worker embeds the note's rows too. */
  staticEmbedder: string | null;
}

export type PrepareResult =
  | { ok: true; prepared: PreparedNote }
  | { ok: false; relPath: string; error: string }
  /** The file is not a note that can be read (binary, invalid UTF-8, empty, gone, a link out of the folder). */
  | { ok: false; relPath: string; skip: { reason: SkipReason; detail: string } };

/** Never throws: a note the parser or extractor cannot handle comes back as an error to report. */
export async function prepareNote(input: NoteInput, embedder: Embedder | null, reading?: Promise<ReadResult>): Promise<PrepareResult> {
  try {
    const tr = performance.now();
    let content = input.content;
    let hash: string | null = null;
    let readAs: ReadAs | null = null;
    if (content === undefined) {
      if (!input.file) throw new Error('a note to prepare needs its content or its file');
      const read = await (reading ?? readNote(input.file.absPath, { root: input.file.root }));
      if (!read.ok) return { ok: false, relPath: input.relPath, skip: { reason: read.reason, detail: read.detail } };
      content = read.content;
      hash = read.hash;
      readAs = read.readAs;
    }
    const t0 = performance.now();
    const note = parseNote(input.relPath, content);
    if (input.title) note.title = input.title;
    const t1 = performance.now();
    const extraction = extractFast(note);
    const chunkSeg = note.chunks.map((c) => segmentForIndex(`${note.title} ${c.headingPath.join(' ')} ${c.text}`));
    const t2 = performance.now();
    const vectors = embedder ? await embedNote(embedder, note, extraction) : null;
    const t3 = performance.now();
    return {
      ok: true,
      prepared: { note, extraction, chunkSeg, vectors, hash, readAs, ms: { read: t0 - tr, parse: t1 - t0, extract: t2 - t1, embed: t3 - t2 } },
    };
  } catch (err) {
    return { ok: false, relPath: input.relPath, error: err instanceof Error ? err.message : String(err) };
  }
}

async function embedNote(embedder: Embedder, note: ParsedNote, extraction: Extraction): Promise<NoteVectors> {
  if (isStatic(embedder)) return { model: embedder.id, ...composeNoteVectors(embedder.sums, embedder.dim, note, extraction) };
  const texts = [docText(note), ...chunkTexts(note), ...extraction.fcis.map((f) => f.text.slice(0, EMBED_MAX_CHARS)), ...mindMapTexts(extraction.mindMap)];
  const v = await embedOnce(embedder, texts);
  const nc = note.chunks.length;
  const nf = extraction.fcis.length;
  return { model: embedder.id, doc: v[0]!, chunks: v.slice(1, 1 + nc), fcis: v.slice(1 + nc, 1 + nc + nf), mm: v.slice(1 + nc + nf) };
}

function isStatic(embedder: Embedder): embedder is StaticEmbedder {
  return 'sums' in embedder;
}

/** The thread's last task: the next one starts after it (see prepareNotes). */
let previousTask: Promise<unknown> = Promise.resolve();

/**
 * A worker task: several small notes per message, so messaging costs little per note. A worker is
 * handed its next batch while it prepares the current one; the batches run one after the other, not
 * note by note in turns (as two async tasks would), so the oldest — the one the writer waits for —
 * comes back as soon as it can.
 */
export function prepareNotes(task: PrepareTask, reads = task.inputs.map(startReading)): Promise<PrepareResult[]> {
  // The batch's files are all asked for at once (unless the caller did): reading one while the notes
  // before it are prepared.
  const run = previousTask.then(() => prepareInOrder(task, reads));
  previousTask = run.catch(() => undefined);
  return run;
}

/** The note's file read and hashed, when it comes as a file rather than as text. */
export function startReading(input: NoteInput): Promise<ReadResult> | undefined {
  return input.content === undefined && input.file ? readNote(input.file.absPath, { root: input.file.root }) : undefined;
}

async function prepareInOrder(task: PrepareTask, reads: (Promise<ReadResult> | undefined)[]): Promise<PrepareResult[]> {
  // The built-in embedder is loaded once per thread (createStaticEmbedder caches the model).
  // Should it fail to load or differ, the rows are left for embedMissing on the engine's thread.
  const loaded = task.staticEmbedder ? await createStaticEmbedder().catch(() => null) : null;
  const embedder = loaded && loaded.id === task.staticEmbedder ? loaded : null;
  const out: PrepareResult[] = [];
  for (const [i, input] of task.inputs.entries()) out.push(await prepareNote(input, embedder, reads[i]));
  return out;
}
