// Background refinement: every indexed note that has no rows from this model + prompt version is
// re-extracted by the model and written in one transaction. "Lacks rows for this extractor" is the
// cache key: a changed note is re-indexed by fast mode first (which replaces its rows), so it comes back
// here; an unchanged note already refined is skipped with no model call; another model re-extracts.
// A killed run loses at most the notes in flight: finished ones are committed.
import type { Embedder } from '../../embed/embedder.js';
import { keptVectorsModel } from '../../embed/static-embedder.js';
import { embedMissing } from '../../embed/embed-missing.js';
import { phaseProgress } from '../../jobs/progress.js';
import { openLlm, type OpenLlmOptions } from '../../llm/open.js';
import { isAbortError, type LlmProvider } from '../../llm/provider.js';
import type { Db } from '../../store/db.js';
import { loadParsedNote, markGraphPending, pruneOrphanEntities, writeExtraction } from '../../store/documents.js';
import { countIndexedDocuments, currentContentHash, listRefineTodo, modelPassJobs } from '../../store/model-pass.js';
import { keepReplies, keptRepliesByKey } from '../../store/kept-replies.js';
import { noteVectorsByText, restoreNoteVectors, type OwnerKind } from '../../store/embeddings.js';
import { releaseVectors, textsOf } from '../../store/released-vectors.js';
import type { IndexProgress } from '../../types.js';
import { extractorFor, extractWithModel, type ExtractOptions } from './extract.js';

export interface RefineOptions extends ExtractOptions {
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** Only these documents (default: all indexed ones). */
  docIds?: number[];
  /** Notes extracted at the same time (default 2, so one-piece notes still fill two model sequences). */
  concurrentNotes?: number;
  /** Embed the new rows when done (default true). */
  embed?: boolean;
}

export interface RefineReport {
  extractor: string;
  /** Notes refined in this run. */
  refined: number;
  /** Notes that already had this extractor's rows: no model work. */
  cached: number;
  /** Notes whose content changed while the model worked: left for the next run. */
  stale: number;
  failed: { docId: number; relPath: string; error: string }[];
  /** Pieces of refined notes whose reply an earlier pass kept (an edit elsewhere in the note): no model call. */
  reusedPieces: number;
  /** Model replies that never validated (recorded, the note still got the rest). */
  outputFailures: number;
  calls: number;
  tokens: number;
  seconds: number;
}

/** The rows an extraction writes (facts and mind-map paths); a note's passages stay as they are. */
const EXTRACTION_KINDS: readonly OwnerKind[] = ['fci', 'mm'];

export async function refineIndex(db: Db, embedder: Embedder, llm: LlmProvider, opts: RefineOptions = {}): Promise<RefineReport> {
  const t0 = performance.now();
  const extractor = extractorFor(llm, opts.strategy);
  const indexed = countIndexedDocuments(db, opts.docIds);
  const todo = listRefineTodo(db, extractor, opts.docIds);
  const vectorsOf = keptVectorsModel(embedder);
  const report: RefineReport = {
    extractor,
    refined: 0,
    cached: indexed - todo.length,
    reusedPieces: 0,
    stale: 0,
    failed: [],
    outputFailures: 0,
    calls: 0,
    tokens: 0,
    seconds: 0,
  };
  const progress = phaseProgress('llm', todo.length, opts.onProgress);
  const job = modelPassJobs(db, extractor);
  let done = 0;
  let next = 0;

  const work = async () => {
    while (next < todo.length) {
      opts.signal?.throwIfAborted();
      const row = todo[next++]!;
      const jobId = job.start(row.id);
      try {
        const note = loadParsedNote(db, row.id);
        // Long notes take minutes on a laptop CPU: report the pieces as they finish, not only whole notes.
        const onPiece = (piecesDone: number, pieces: number) => {
          if (pieces > 1) progress.tick(done, `${row.relPath} (piece ${piecesDone}/${pieces})`);
        };
        const extraction = await extractWithModel(note, llm, embedder, { ...opts, onPiece, keptReplies: (keys) => keptRepliesByKey(db, keys) });
        report.calls += extraction.stats.calls;
        report.tokens += extraction.stats.tokens;
        report.outputFailures += extraction.stats.failures.length;
        report.reusedPieces += extraction.stats.reusedPieces;
        const { stats, keptReplies, ...rows } = extraction;
        const written = db.transaction(() => {
          if (currentContentHash(db, row.id) !== row.contentHash) return false;
          // The extraction's rows are replaced: the texts the model's facts and paths share with the
          // replaced ones (a heading's path, a reused reply's facts) keep their vectors, the rest are released.
          const kept = vectorsOf ? noteVectorsByText(db, row.id, null, EXTRACTION_KINDS) : null;
          writeExtraction(db, row.id, rows);
          if (kept && vectorsOf) releaseVectors(db, row.root, vectorsOf, textsOf(restoreNoteVectors(db, row.id, kept), vectorsOf));
          keepReplies(db, row.id, keptReplies);
          markGraphPending(db, [row.id]);
          job.finish(jobId, 'done', stats.failures.length ? stats.failures.slice(0, 5).join('; ') : null);
          return true;
        })();
        if (written) report.refined++;
        else {
          report.stale++;
          job.finish(jobId, 'failed', 'content changed during extraction');
        }
      } catch (err) {
        if (isAbortError(err) || opts.signal?.aborted) {
          job.finish(jobId, 'failed', 'cancelled');
          throw err;
        }
        const message = err instanceof Error ? err.message : String(err);
        report.failed.push({ docId: row.id, relPath: row.relPath, error: message });
        job.finish(jobId, 'failed', message);
      }
      progress.tick(++done, row.relPath);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrentNotes ?? 2, todo.length)) }, work));
  progress.finish();

  if (report.refined > 0) {
    // Fast mode's entities that only the replaced rows mentioned go; the new rows get vectors. The
    // document layer and fusion are rebuilt by the indexer's graph step from graph_pending.
    pruneOrphanEntities(db, vectorsOf);
    if (opts.embed ?? true) await embedMissing(db, embedder, { signal: opts.signal });
  }
  report.seconds = (performance.now() - t0) / 1000;
  return report;
}

/** `--model <id|path|url#model>`: opens the model, refines the index with it, and always closes it. */
export async function refineIndexWithModel(
  db: Db,
  embedder: Embedder,
  modelSpec: string,
  opts: RefineOptions & OpenLlmOptions = {},
): Promise<RefineReport> {
  const llm = await openLlm(modelSpec, opts);
  try {
    return await refineIndex(db, embedder, llm, opts);
  } finally {
    await llm.close();
  }
}

/**
 * The model pass on an index built elsewhere (`loci bench --model`): refine every note, then rebuild
 * what spans notes (document layer, fusion) from the rows the model wrote, as a folder job does.
 */
export async function refineAndRegraph(
  db: Db,
  embedder: Embedder,
  modelSpec: string,
  opts: RefineOptions & OpenLlmOptions = {},
): Promise<RefineReport> {
  // The graph step embeds the rewritten notes' rows: they are marked pending.
  const report = await refineIndexWithModel(db, embedder, modelSpec, { ...opts, embed: false });
  const { updateGraph } = await import('../../graph/build.js');
  await updateGraph(db, embedder, { signal: opts.signal });
  return report;
}
