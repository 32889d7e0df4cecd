// `ppr`: personalized PageRank over the entity–chunk–note graph (graph/entity-graph.ts), seeded by the
// fusion of BM25 and dense (HippoRAG 2, SPRIG) and by the names the question mentions, with no model at
// query time. The first stage finds the passages that match the question; the walk carries part of
// their weight through shared entities, titles and links to the notes that hold the second hop.
import type { RetrievalContext, RetrievalResult, Retriever } from './retriever.js';
import { buildEntityGraph, synonymPairs, type EntityGraph, type SynonymPairs } from '../graph/walk/entity-graph.js';
import { NoteTitleScans } from '../graph/walk/title-mentions.js';
import { indexNoteVersions } from './note-versions.js';
import { personalizedPageRank, pushPageRank } from '../graph/walk/pagerank.js';
import { chunkContexts } from './contexts.js';
import { analyseQuery, type QueryAnalysis } from './query.js';
import { fusedChunks } from './rank-fusion.js';
import { isStopWord } from '../text/stopwords.js';
import { hasHan } from '../text/lang.js';

export interface PprParams {
  /** Chunks taken from each first-stage ranking into the seed fusion. */
  depth: number;
  rrfK: number;
  /** Share of the reset mass on the seed chunks (the rest on the question's names, when it has any). */
  chunkSeedShare: number;
  damping: number;
  /** Residual left unpushed per unit of a node's strength (the push approximation's precision). */
  epsilon: number;
}

export const DEFAULT_PPR_PARAMS: PprParams = { depth: 30, rrfK: 10, chunkSeedShare: 0.5, damping: 0.5, epsilon: 1e-5 };

export interface PprDocument {
  docId: number;
  score: number;
  /** The chunk node with the most mass (the passage the note is shown by). */
  chunkId: number;
}

export interface PprExplanation {
  method: 'ppr';
  params: PprParams;
  /** Names of the question found in the graph, with their share of the reset mass. */
  seedNames: { name: string; weight: number }[];
  seedChunks: number;
  graph: { nodes: number; edges: number; chunks: number; notes: number; synonymEdges: number; buildMs: number };
  documents: PprDocument[];
}

export function entityGraph(ctx: RetrievalContext): EntityGraph {
  // 1.8 s to build at 10k news, 20–90 ms to read back (3.9 MB): a new process reads the last one's.
  return ctx.cache.snapshotted('ppr:graph', ENTITY_GRAPH_FORMAT, () => {
    const entities = ctx.cache.matrix('entity');
    // The synonym pairs (0.35 s at the 37k names of 10k news) outlast an edit that adds no entity.
    const pairsOf: SynonymPairs = (m, threshold) =>
      ctx.cache.lasting('ppr:synonyms', `${ctx.embedder.id}:${threshold}:${m.contentHash()}`, () => synonymPairs(m, threshold));
    // Each note's title hits outlast an edit of another note.
    const titleScans = ctx.cache.lasting('graph:title-scans', 'per note', () => new NoteTitleScans());
    return buildEntityGraph(ctx.db, entities.size ? entities : null, {}, { pairsOf, titleScans, versions: indexNoteVersions(ctx) });
  });
}

/** The entity graph's shape and how it is built (graph/entity-graph.ts): change it when either does, so no snapshot of an older one is read. */
const ENTITY_GRAPH_FORMAT = 'entity-graph 1';

/** A one-word name that is a common or very short word would seed half the graph. */
function specificName(name: string): boolean {
  if (name.includes(' ')) return true;
  if (isStopWord(name)) return false;
  return hasHan(name) ? name.length >= 2 : name.length >= 4;
}

export interface PprRun {
  documents: PprDocument[];
  seedNames: { name: string; weight: number }[];
  seedChunks: number;
  graph: EntityGraph;
}

/** Notes ranked by the walk's mass on their best chunk. */
export async function pprRank(ctx: RetrievalContext, qa: QueryAnalysis, p: PprParams): Promise<PprRun> {
  const g = entityGraph(ctx);
  const reset = new Float32Array(g.csr.n);
  const seeds = fusedChunks(ctx, qa, p.depth, p.rrfK);
  let chunkMass = 0;
  for (const s of seeds) {
    const node = g.nodeOfChunk.get(s.id);
    if (node === undefined) continue;
    reset[node] = s.score;
    chunkMass += s.score;
  }
  // Names in the question weighted by specificity (IDF over chunks), HippoRAG's node weighting.
  const names = new Map<number, { name: string; weight: number }>();
  for (const name of qa.names) {
    const node = g.byName.get(name);
    if (node === undefined || !specificName(name) || names.has(node)) continue;
    const df = node >= g.chunks + g.notes ? Math.max(1, g.df[node]!) : 1;
    names.set(node, { name, weight: Math.log(1 + g.chunks / df) });
  }
  // A shorter name inside a longer one found too ("Kestrel" in "Kestrel Coffee Works") adds little.
  const nameMass = [...names.values()].reduce((a, b) => a + b.weight, 0);
  const share = nameMass > 0 ? p.chunkSeedShare : 1;
  if (chunkMass > 0) for (let i = 0; i < g.chunks; i++) if (reset[i]) reset[i] = (share * reset[i]!) / chunkMass;
  for (const [node, n] of names) reset[node]! += ((chunkMass > 0 ? 1 - share : 1) * n.weight) / nameMass;

  // epsilon 0: exact power iteration (the reference the push approximation is checked against).
  const { p: mass, touched } =
    p.epsilon > 0
      ? pushPageRank(g.csr, reset, p.damping, p.epsilon)
      : { p: personalizedPageRank(g.csr, reset, { damping: p.damping, iterations: 20 }), touched: Int32Array.from({ length: g.chunks }, (_, i) => i) };
  const best = new Map<number, PprDocument>();
  for (const c of touched) {
    if (c >= g.chunks) continue;
    const m = mass[c]!;
    if (m <= 0) continue;
    const docId = g.chunkDoc[c]!;
    const known = best.get(docId);
    if (!known || m > known.score) best.set(docId, { docId, score: m, chunkId: g.chunkId[c]! });
  }
  const documents = [...best.values()].sort((a, b) => b.score - a.score || a.docId - b.docId);
  const total = nameMass || 1;
  return { documents, seedNames: [...names.values()].map((n) => ({ name: n.name, weight: n.weight / total })), seedChunks: seeds.length, graph: g };
}

export function createPprRetriever(overrides: Partial<PprParams> = {}): Retriever {
  const p: PprParams = { ...DEFAULT_PPR_PARAMS, ...overrides };
  return async (ctx: RetrievalContext, question: string, k: number): Promise<RetrievalResult> => {
    const qa = await analyseQuery(ctx, question);
    const run = await pprRank(ctx, qa, p);
    const top = run.documents.slice(0, k);
    const g = run.graph;
    const explanation: PprExplanation = {
      method: 'ppr',
      params: p,
      seedNames: run.seedNames,
      seedChunks: run.seedChunks,
      graph: { nodes: g.csr.n, edges: g.csr.col.length / 2, chunks: g.chunks, notes: g.notes, synonymEdges: g.synonymEdges, buildMs: g.buildMs },
      documents: top,
    };
    return { contexts: chunkContexts(ctx.db, top.map((d) => ({ id: d.chunkId, score: d.score }))), explanation, query: qa };
  };
}

export const pprRetriever: Retriever = createPprRetriever();

export function formatPprExplanation(x: PprExplanation): string {
  const g = x.graph;
  const out = [
    `ppr over ${g.nodes} nodes (${g.chunks} chunks, ${g.notes} notes), ${g.edges} edges (${g.synonymEdges} synonym); seeds: ${x.seedChunks} chunks` +
      (x.seedNames.length ? `, names ${x.seedNames.map((n) => `“${n.name}” ${n.weight.toFixed(2)}`).join(', ')}` : ''),
  ];
  for (const d of x.documents) out.push(`  ${d.score.toExponential(3)}  note ${d.docId} (chunk ${d.chunkId})`);
  return out.join('\n');
}
