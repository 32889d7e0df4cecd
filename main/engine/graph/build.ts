// The graph step every pass that rewrites notes ends with (fast run, model pass, removal, embedder switch):
// vectors for rows that lack them, then — for the notes waiting in graph_pending — KG-Retriever's
// document layer and PG-RAG's pseudo-graph; and which embedder the graph was built with.
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.js';
import type { Embedder } from '../embed/embedder.js';
import type { IndexOptions } from '../api.js';
import { keptVectorsModel } from '../embed/static-embedder.js';
import { embedMissing, KINDS_SEARCH_READS, type EmbedLedger, type EmbedMissingOptions, type EmbedProgress } from '../embed/embed-missing.js';
import { VectorMatrix } from '../embed/vector-matrix.js';
import { clearGraphPending, everyDocumentPending, graphPendingIds, hasIndexedDocuments, pruneOrphanEntities } from '../store/documents.js';
import { getSetting, INDEX_GENERATION, setSetting } from '../store/settings.js';
import { judgeNoteLanguages } from '../ingest/note-language.js';
import type { NotePool } from '../index-worker/pool.js';
import { addTime, phaseProgress } from '../jobs/progress.js';
import { docMatrix, updateDocEdges } from './hig/doc-edges.js';
import { DEFAULT_FUSION, updateFusion, type FusionThresholds } from './pseudo/fusion.js';

export interface GraphBuildOptions extends IndexOptions {
  fusion?: FusionThresholds;
  docNeighbours?: number;
  /** Filled with seconds of work per step (parse, extract, write, embed, graph…), summed over threads. */
  phaseTimes?: Record<string, number>;
  /** Filled with what the embedding step embedded and derived, per kind (`loci bench-index`). */
  embedLedger?: EmbedLedger;
  /** What loads the embedder (its spec), kept with the graph built with it: see graphEmbedder. */
  embedderSpec?: string;
  /**
   * A switch of embedder is under way and rebuilds the whole graph when it is done. Where the graph was
   * built with another embedder than the one answering (after the swap), the graph step embeds only the
   * notes written since and leaves them marked for that rebuild, instead of doing the switch's hours of
   * work itself; before the swap it runs as usual, for the embedder still answering.
   */
  graphRebuiltLater?: boolean;
  /**
   * Embeds only what questions read, leaving PG-RAG's fact paths (most of a real embedder's work) and so
   * its pseudo-graph without them: for a bench of the other methods. The graph is not recorded as built
   * with this embedder, so the next run without this option embeds the fact paths and rebuilds it whole.
   */
  factPathsLater?: boolean;
}

/** Settings key: the embedder the graph was last built with; another one means rebuilding it whole. */
const GRAPH_MODEL = 'graph_model';
/** Settings key: a random stamp written by each graph step (see updateFusion's kept nodes). */
const FUSION_STAMP = 'fusion_stamp';

/** True when the index holds documents whose vectors (and graph) were made by another embedder. */
export function needsReembedding(db: Db, embedder: Embedder): boolean {
  return hasIndexedDocuments(db) && getSetting<string | null>(db, GRAPH_MODEL, null) !== embedder.id;
}

/** Settings key: the spec (what loads it) of the embedder the graph was last built with; the graph step knows only its id. */
const GRAPH_EMBEDDER_SPEC = 'graph_embedder_spec';

/** Records what loads `embedder`, when the graph is built with it: a later start can load it again. */
export function rememberGraphEmbedder(db: Db, embedder: Embedder, spec: string): void {
  if (getSetting<string | null>(db, GRAPH_MODEL, null) === embedder.id && getSetting<string | null>(db, GRAPH_EMBEDDER_SPEC, null) !== spec) {
    setSetting(db, GRAPH_EMBEDDER_SPEC, spec);
  }
}

/** What loads the embedder the graph was last built with, and the id it must have; null when unknown. */
export function graphEmbedder(db: Db): { spec: string; id: string } | null {
  const spec = getSetting<string | null>(db, GRAPH_EMBEDDER_SPEC, null);
  const id = getSetting<string | null>(db, GRAPH_MODEL, null);
  return spec && id ? { spec, id } : null;
}


/**
 * The rows lacking this embedder's vectors (of every kind, or of `kinds`) get them, as an 'embed' phase
 * counted in texts (a count a user can read) whose ETA follows the estimated work: texts differ in length.
 */
export async function embedWithProgress(
  db: Db,
  embedder: Embedder,
  opts: Pick<GraphBuildOptions, 'onProgress' | 'signal'> & Omit<EmbedMissingOptions, 'onProgress'>,
): Promise<number> {
  // Made on the first report, which says how many texts there are.
  const phase: { progress?: ReturnType<typeof phaseProgress> } = {};
  const onProgress = (p: EmbedProgress) => {
    phase.progress ??= phaseProgress('embed', p.total, opts.onProgress);
    phase.progress.tick(p.done, undefined, p.work);
  };
  const embedded = await embedMissing(db, embedder, { ...opts, onProgress });
  phase.progress?.finish();
  return embedded;
}

/**
 * Work that spans documents: vectors for rows that lack them, the document layer and the pseudo-graph
 * for documents listed in graph_pending. Any pass that rewrites documents' rows (fast or model) ends here.
 */
export async function updateGraph(
  db: Db,
  embedder: Embedder,
  opts: GraphBuildOptions,
  pool: NotePool | null = null,
  /** Documents this run wrote together with the vectors of all their rows. */
  embeddedHere: ReadonlySet<number> = new Set(),
): Promise<void> {
  const times = opts.phaseTimes ?? {};
  const t0 = performance.now();
  const pruned = pruneOrphanEntities(db, keptVectorsModel(embedder));
  // Here, on this thread, not in the workers that prepared the notes: the detector's tables load once
  // per process instead of once per worker and run.
  await judgeNoteLanguages(db);
  const pending = graphPendingIds(db);
  const graphModel = getSetting<string | null>(db, GRAPH_MODEL, null);
  const sameModel = graphModel === embedder.id;
  // With the graph's embedder unchanged (or no graph built yet, every note waiting for it), only rows
  // of the notes written since the last graph step can lack a vector — a note's rows and its pending
  // mark are written in one transaction — and of those, notes whose vectors were written with them
  // (by the built-in embedder, in the worker) lack none: at 68k notes, scanning 1.7M rows for missing
  // vectors took minutes of disk reads.
  const scoped = sameModel || opts.graphRebuiltLater || (graphModel === null && everyDocumentPending(db));
  const scope = scoped ? { rows: pending.filter((id) => !embeddedHere.has(id)), entities: pending } : null;
  const kinds = opts.factPathsLater ? { kinds: KINDS_SEARCH_READS } : {};
  const embedded = await embedWithProgress(db, embedder, { onProgress: opts.onProgress, signal: opts.signal, scope, times, ledger: opts.embedLedger, ...kinds });
  addTime(times, 'embed', t0);
  if (opts.graphRebuiltLater && !sameModel) {
    // Searchable now (a new generation reloads what questions read); related notes and pgr catch up then.
    if (pending.length > 0 || embedded > 0 || pruned > 0) setSetting(db, INDEX_GENERATION, getSetting(db, INDEX_GENERATION, 0) + 1);
    opts.onProgress?.({ phase: 'done', done: 1, total: 1, etaSeconds: 0 });
    return;
  }

  if (pending.length === 0 && embedded === 0 && pruned === 0 && sameModel) return;
  const t1 = performance.now();
  const graph = phaseProgress('graph', 2, opts.onProgress);
  const changed = sameModel ? new Set(pending) : 'all';
  // A fresh stamp per step: what this process keeps of the graph (document vectors and edges, fusion
  // nodes) is used again only while the index still carries the stamp it was kept under — no other
  // process or failed step has been in between.
  const stamp = { current: getSetting(db, FUSION_STAMP, ''), next: randomUUID() };
  const docs = docMatrix(db, embedder.id, embedder.dim, changed, stamp);
  addTime(times, 'graph: load', t1);
  // With worker threads at hand, a full rebuild's document neighbours are found in one of them while
  // this thread fuses the mind maps: the two steps share nothing but the database, written from here.
  const elsewhere = pool
    ? (m: VectorMatrix, k: number) => pool.neighbours({ neighbours: k, dim: m.dim, ids: m.ids, data: m.data })
    : undefined;
  const t = performance.now();
  const edges = updateDocEdges(db, docs, changed, opts.docNeighbours, undefined, elsewhere, stamp).then(() => {
    addTime(times, 'graph: doc edges', t);
    graph.tick(1);
  });
  // Handled here too, so a failure while fusion runs is not an unhandled rejection (Promise.all reports it).
  edges.catch(() => undefined);
  if (!elsewhere) await edges;
  const tf = performance.now();
  const fusion = updateFusion(db, embedder.id, changed, opts.fusion ?? DEFAULT_FUSION, stamp).then(() => addTime(times, 'graph: fusion', tf));
  await Promise.all([edges, fusion]);
  clearGraphPending(db);
  setSetting(db, GRAPH_MODEL, opts.factPathsLater ? null : embedder.id);
  if (opts.embedderSpec) rememberGraphEmbedder(db, embedder, opts.embedderSpec);
  setSetting(db, FUSION_STAMP, stamp.next);
  setSetting(db, INDEX_GENERATION, getSetting(db, INDEX_GENERATION, 0) + 1);
  graph.finish();
  addTime(times, 'graph', t1);
  opts.onProgress?.({ phase: 'done', done: 1, total: 1, etaSeconds: 0 });
}
