// KG-Retriever's retrieval over the hierarchical index graph (§3.2.2): document level (top-N documents
// plus their neighbours on the document graph under one of three collaboration strategies), then KG level
// (entities of the candidate documents kept when w·cos(v_e, v_q) > λ, their triples returned, at most T).
// The paper takes the top-N by dense similarity; here they come from the fusion of BM25 and dense, so a
// weak embedder does not choose the documents alone, and the document graph itself judges how far dense
// is to be trusted on this question (../graph-seeds.ts). The walk and the KG level are the paper's.
import type { Db } from '../../store/db.js';
import type { RetrievedContext } from '../../types.js';
import type { RetrievalContext, RetrievalResult, Retriever } from '../retriever.js';
import { chunkContexts } from '../contexts.js';
import { notesInSpans } from '../passage-spans.js';
import { severalPassagesPerNote } from '../passage-choice.js';
import { DEFAULT_PASSAGE_PARAMS } from '../note-passages.js';
import { chunkDocuments } from '../rank-fusion.js';
import { dot } from '../../embed/embedder.js';
import { analyseQuery } from '../query.js';
import { graphSeededDocuments } from '../graph-seeds.js';
import { docEdgesOf, entityMentionsOf, titlesOf, triplesOf, type DocEdge } from '../../store/hig.js';
import { proseChunksOf } from '../../store/retrieval.js';

export type HigStrategy = 'one-hop' | 'attentive' | 'multi-hop';

export interface HigParams {
  /** Documents taken from the BM25+dense fusion. */
  topN: number;
  /** Neighbours followed per document (the document graph stores the K most similar; this caps it). */
  neighbours: number;
  /** Entity threshold λ of w·cos(v_e, v_q) > λ. */
  lambda: number;
  /** Maximum triples returned. */
  maxTriples: number;
  strategy: HigStrategy;
}

/**
 * The paper's HotpotQA settings (K=3, T=20, λ=0.1) but N=5 seed documents: with fusion seeds, N=3 left
 * ranks 4–5 to graph neighbours, which trailed hybrid on every dev set (bench, fast mode, GloVe).
 */
export const DEFAULT_HIG_PARAMS: HigParams = { topN: 5, neighbours: 3, lambda: 0.1, maxTriples: 20, strategy: 'attentive' };

export interface HigDocument {
  docId: number;
  title: string;
  /** cos(v_d, v_q). */
  similarity: number;
  /** Collaboration weight: 1 for the top-N documents; per strategy for neighbours. */
  weight: number;
  /** The top-N document it was reached from (itself for a top-N document), and the hop count. */
  via: number | null;
  hops: 0 | 1 | 2;
  score: number;
}

export interface HigEntity {
  entityId: number;
  name: string;
  docId: number;
  weight: number;
  similarity: number;
  /** w · cos(v_e, v_q). */
  score: number;
}

export interface HigExplanation {
  method: 'hig';
  params: HigParams;
  /** Weight of the dense ranking in the seed fusion, from its agreement with BM25 on the document graph. */
  denseWeight: number;
  /** BM25's first note leads the seeds (graph-seeds.ts withLexicalFirst). */
  lexicalFirst: boolean;
  /** Notes are guides of several passages: passages are shown in their section's span, with the note's other near-top passages. */
  sectionSpans: boolean;
  documents: HigDocument[];
  entities: HigEntity[];
  triples: { id: number; text: string; docId: number; entityId: number; score: number }[];
}

type Edge = DocEdge;

function edgesOf(db: Db, ids: number[]): Edge[] {
  return docEdgesOf(db, ids);
}

/** Neighbours of `from` by edge weight, capped per document. */
function neighbourMap(edges: Edge[], cap: number): Map<number, Edge[]> {
  const map = new Map<number, Edge[]>();
  for (const e of edges) {
    const list = map.get(e.src) ?? [];
    list.push(e);
    map.set(e.src, list);
  }
  for (const list of map.values()) list.sort((a, b) => b.weight - a.weight).splice(cap);
  return map;
}

/** The document level: top-N documents and their collaborators, each with its weight w. */
export function collaborate(db: Db, docSims: (id: number) => number, seeds: { id: number; score: number }[], p: HigParams): Map<number, HigDocument> {
  const docs = new Map<number, HigDocument>();
  for (const s of seeds) docs.set(s.id, { docId: s.id, title: '', similarity: s.score, weight: 1, via: s.id, hops: 0, score: s.score });
  const offer = (docId: number, weight: number, via: number, hops: 1 | 2) => {
    const known = docs.get(docId);
    if (known && known.weight >= weight) return;
    if (known && known.hops === 0) return;
    const similarity = docSims(docId);
    docs.set(docId, { docId, title: '', similarity, weight, via, hops, score: weight * similarity });
  };
  const first = neighbourMap(edgesOf(db, seeds.map((s) => s.id)), p.neighbours);
  const hop1: { id: number; weight: number; via: number }[] = [];
  for (const s of seeds) {
    for (const e of first.get(s.id) ?? []) {
      const w = p.strategy === 'one-hop' ? 1 : e.weight;
      offer(e.dst, w, s.id, 1);
      hop1.push({ id: e.dst, weight: w, via: s.id });
    }
  }
  if (p.strategy === 'multi-hop') {
    const second = neighbourMap(edgesOf(db, [...new Set(hop1.map((h) => h.id))]), p.neighbours);
    for (const h of hop1) for (const e of second.get(h.id) ?? []) offer(e.dst, h.weight * e.weight, h.via, 2);
  }
  return docs;
}

/** Each document's chunk most similar to the query (its first chunk when no chunk has a vector). */
export function bestChunks(ctx: RetrievalContext, q: Float32Array, docIds: number[]): Map<number, number> {
  const rows = proseChunksOf(ctx.db, docIds);
  const chunks = ctx.cache.matrix('chunk');
  const best = new Map<number, { id: number; score: number }>();
  for (const r of rows) {
    const v = chunks.vector(r.id);
    const score = v ? dot(v, q) : -Infinity;
    const known = best.get(r.docId);
    if (!known || score > known.score) best.set(r.docId, { id: r.id, score });
  }
  return new Map([...best].map(([doc, b]) => [doc, b.id]));
}

export function createHigRetriever(overrides: Partial<HigParams> = {}): Retriever {
  const p: HigParams = { ...DEFAULT_HIG_PARAMS, ...overrides };
  return async (ctx: RetrievalContext, question: string, k: number): Promise<RetrievalResult> => {
    const { db, cache } = ctx;
    const qa = await analyseQuery(ctx, question);
    const q = qa.embedding;
    const docMatrix = cache.matrix('doc');
    const docSim = (id: number) => {
      const v = docMatrix.vector(id);
      return v ? dot(v, q) : 0;
    };
    // The paper's top-N documents are the seeds; they lead in fusion order (a score above any neighbour's
    // w·cos ≤ 1) and neighbours follow by w·cos. Collaboration adds documents after the seeds and never
    // displaces one: a neighbour is there for being similar to a seed, which says less about the question
    // than the seed's own lexical and dense match (with N=3 and neighbours in ranks 4–5 hig trailed
    // hybrid on every dev set).
    const { documents: fused, passages: fusedPassages, denseWeight, lexicalFirst } = await graphSeededDocuments(ctx, qa);
    const seeds = fused.slice(0, p.topN).map((d, i) => ({ id: d.docId, score: 2 - i / p.topN }));
    const docs = collaborate(db, docSim, seeds, p);
    for (const s of seeds) docs.get(s.id)!.similarity = docSim(s.id);
    const ranked = [...docs.values()].sort((a, b) => b.score - a.score);
    const ids = ranked.map((d) => d.docId);

    const titles = titlesOf(db, ids);
    for (const d of ranked) d.title = titles.get(d.docId) ?? '';

    // KG level: entities mentioned in a candidate document, weighted by that document's w.
    const mentions = entityMentionsOf(db, ids);
    const entityMatrix = cache.matrix('entity');
    const best = new Map<number, HigEntity>();
    for (const m of mentions) {
      const v = entityMatrix.vector(m.entityId);
      if (!v) continue;
      const doc = docs.get(m.docId)!;
      const similarity = dot(v, q);
      const score = doc.weight * similarity;
      if (score <= p.lambda) continue;
      const known = best.get(m.entityId);
      if (!known || known.score < score) best.set(m.entityId, { entityId: m.entityId, name: m.name, docId: m.docId, weight: doc.weight, similarity, score });
    }
    const entities = [...best.values()].sort((a, b) => b.score - a.score);

    const tripleRows = triplesOf(
      db,
      ids,
      entities.map((e) => e.entityId),
    );
    const tripleScored = tripleRows
      .map((t) => {
        const e = [best.get(t.s), best.get(t.o)].filter((x): x is HigEntity => !!x).sort((a, b) => b.score - a.score)[0];
        return { t, entity: e!, score: e!.score };
      })
      .sort((a, b) => b.score - a.score || a.t.id - b.t.id)
      .slice(0, p.maxTriples);

    // A seed's passage is the one the fusion found it by (its best chunk for BM25 and dense together);
    // a neighbour, reached by document similarity alone, shows its chunk most similar to the question.
    // With the dense-only choice for every document, hig's first contexts missed the answer words BM25
    // had matched in the very notes hig returned (answer in context below hybrid's on every dev set).
    // Prose only, as before: a code block matched by its identifiers is a poor passage to read or cite
    // (the fusion's chunk, code included, cost Foam's answer shown 65 → 62; prose only, 63).
    const prose = new Set(proseChunksOf(db, ids).map((c) => c.id));
    const fusedChunk = new Map(fused.filter((d) => prose.has(d.chunkId)).map((d) => [d.docId, d.chunkId]));
    const denseChunk = bestChunks(
      ctx,
      q,
      ids.filter((id) => !fusedChunk.has(id)),
    );
    const chunkOf = (docId: number) => fusedChunk.get(docId) ?? denseChunk.get(docId);
    const notes = ranked.slice(0, Math.max(k, p.topN)).flatMap((d) => {
      const chunkId = chunkOf(d.docId);
      return chunkId === undefined ? [] : [{ docId: d.docId, score: d.score, chunkId }];
    });
    // The document level returns documents. Where a note is many passages (a guide), one passage is a
    // small part of it: each is shown in its section's span, followed by the note's other passages among
    // the fusion's first (as loci shows notes, note-passages.ts). Documentation dev sets, GloVe, share of
    // the reference answer's words in the first 5 contexts, SilverBullet / Foam: one passage 69.9 / 69.1,
    // in its span 71.4 / 72.5, with further passages 73.8 / 84.0 (hybrid 70.6 / 72.8); recall@5 unchanged.
    let docContexts: RetrievedContext[];
    const sectionSpans = severalPassagesPerNote(ctx);
    if (sectionSpans) {
      const nearTop = fusedPassages.slice(0, DEFAULT_PASSAGE_PARAMS.withinTop).map((x) => x.id);
      docContexts = notesInSpans(db, notes, nearTop, chunkDocuments(ctx), Math.max(k, p.topN));
    } else docContexts = chunkContexts(db, notes.map((n) => ({ id: n.chunkId, score: n.score })));
    const tripleContexts: RetrievedContext[] = tripleScored.map(({ t, score }) => ({
      text: `${t.subject} ${t.relation} ${t.object}`,
      docId: t.docId,
      docPath: t.relPath,
      docTitle: t.title,
      lineFrom: t.lineFrom,
      lineTo: t.lineTo,
      factPath: null,
      score,
      kind: 'triple',
    }));

    const explanation: HigExplanation = {
      method: 'hig',
      params: p,
      denseWeight,
      lexicalFirst,
      sectionSpans,
      documents: ranked,
      entities,
      triples: tripleScored.map(({ t, entity, score }) => ({ id: t.id, text: `${t.subject} ${t.relation} ${t.object}`, docId: t.docId, entityId: entity.entityId, score })),
    };
    return { contexts: [...docContexts, ...tripleContexts], explanation, query: qa };
  };
}

export const higRetriever: Retriever = createHigRetriever();
