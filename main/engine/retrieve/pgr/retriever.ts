// PG-RAG's pseudo-graph retrieval (§2.4): seed topics, topic walking through super-topics and fact
// walking through super-facts to a handful of candidate topics, their fact paths loaded into template
// matrices, and the matrix core (./matrices.ts) choosing the top-K fact paths. The paper seeds by topic
// similarity; here the seed topics are those of the notes the BM25+dense fusion ranks first (a note
// named by an id has its first heading or sentence as topic, so untitled news is found too), with dense
// weighted by its agreement with BM25 on the document graph (../graph-seeds.ts).
import type { Db } from '../../store/db.js';
import type { RetrievedContext } from '../../types.js';
import type { RetrievalContext, RetrievalResult, Retriever } from '../retriever.js';
import { VectorMatrix, topK } from '../../embed/vector-matrix.js';
import { dot } from '../../embed/embedder.js';
import { DEFAULT_PGR_PARAMS, aggregate, buildTemplate, topRows, type PgrParams } from './matrices.js';
import { fastKeyPoints } from './key-points.js';
import { analyseQuery } from '../query.js';
import { graphSeededDocuments } from '../graph-seeds.js';
import { chunkRows } from '../../store/retrieval.js';
import { passageSpans, spanContexts } from '../passage-spans.js';
import { severalPassagesPerNote } from '../passage-choice.js';
import { withFurtherPassages } from './further-passages.js';
import { documentsByIds, mindMapsOfTopics, superNodeSizes, superNodesOfTopics, topicRows, topicsUnderSuperNodes, type MindMapNodeRow } from '../../store/pgr.js';

export interface PgrRetrieverParams extends PgrParams {
  /** Seed notes: the topics of the notes the BM25+dense fusion ranks first are the seed topics. */
  seedNotes: number;
  /** Topics walked to through super nodes, added to the seed topics (PG-RAG's candidates are their union). */
  maxWalked: number;
  /** When the fusion has fewer seed notes with topics, fill up with the topics most similar to the question. */
  fillBySimilarity: boolean;
  /** Super nodes with more members are hubs (shared boilerplate), not walked through. */
  maxSuperMembers: number;
  /**
   * Weight of the note's fusion rank next to the matrix score (both scaled to 0–1) when the rows are
   * ranked: the matrices judge paths by the key points' vectors alone, which a weak embedder blurs.
   */
  wFusion: number;
  /** Rows per note before another note's rows are taken (the rest follow), so K paths span notes. */
  rowsPerNote: number;
}

export const DEFAULT_PGR_RETRIEVER_PARAMS: PgrRetrieverParams = {
  ...DEFAULT_PGR_PARAMS,
  seedNotes: 5,
  maxWalked: 3,
  fillBySimilarity: true,
  maxSuperMembers: 50,
  wFusion: 1,
  rowsPerNote: 2,
};

export interface PgrTopic {
  id: number;
  docId: number;
  text: string;
  similarity: number;
  /** How the topic joined the candidates. */
  via: 'seed' | 'super-topic' | 'super-fact' | 'fusion';
  /** The super node walked through, for walked topics. */
  superId?: number;
}

export interface PgrMindMapNode {
  id: number;
  kind: string;
  text: string;
  /** Total contribution of the node in the aggregate matrix. */
  score: number;
  lineFrom: number | null;
  lineTo: number | null;
  children: PgrMindMapNode[];
}

export interface PgrExplanation {
  method: 'pgr';
  keyPoints: string[];
  /** Weight of the dense ranking in the seed fusion, from its agreement with BM25 on the document graph. */
  denseWeight: number;
  /** BM25's first note leads the seeds (graph-seeds.ts withLexicalFirst). */
  lexicalFirst: boolean;
  /** Notes are guides of several passages: passages are shown in their section's span, with the note's other near-top passages. */
  sectionSpans: boolean;
  seedTopics: PgrTopic[];
  walkedTopics: PgrTopic[];
  seedFactPaths: { keyPoint: string; nodeId: number; pathText: string; similarity: number; ancestorId: number; rowsReached: number }[];
  factPaths: { nodeId: number; pathText: string; score: number }[];
  /** The chosen paths as one nested mind map per note. */
  mindMap: PgrMindMapNode[];
  templateRows: number;
}

type NodeRow = MindMapNodeRow;

interface TopicIndex {
  matrix: VectorMatrix;
  docOf: Map<number, number>;
  textOf: Map<number, string>;
  topicsOf: Map<number, number[]>;
}

function topicIndex(ctx: RetrievalContext): TopicIndex {
  return ctx.cache.derived('pgr:topics', () => {
    const mm = ctx.cache.matrix('mm');
    const rows = topicRows(ctx.db);
    const topicsOf = new Map<number, number[]>();
    for (const r of rows) {
      const list = topicsOf.get(r.document_id);
      if (list) list.push(r.id);
      else topicsOf.set(r.document_id, [r.id]);
    }
    const entries = rows.flatMap((r) => {
      const vector = mm.vector(r.id);
      return vector ? [{ id: r.id, vector }] : [];
    });
    return {
      matrix: new VectorMatrix(mm.dim, entries),
      docOf: new Map(rows.map((r) => [r.id, r.document_id])),
      textOf: new Map(rows.map((r) => [r.id, r.text])),
      topicsOf,
    };
  });
}

/** Members per super node, for leaving out hubs (boilerplate lines shared by hundreds of notes say nothing). */
function superSizes(ctx: RetrievalContext): Map<number, number> {
  return ctx.cache.derived('pgr:super-sizes', () => superNodeSizes(ctx.db));
}

/** Topics sharing a super-topic node with a seed, and topics of facts sharing a super-fact node with a seed topic's fact. */
function walk(ctx: RetrievalContext, seedIds: number[], maxSuperMembers: number): { topicId: number; via: 'super-topic' | 'super-fact'; superId: number }[] {
  const { db } = ctx;
  const sizes = superSizes(ctx);
  const supers = superNodesOfTopics(db, seedIds);
  const usable = supers.filter((s) => (sizes.get(s.superId) ?? 0) <= maxSuperMembers);
  if (usable.length === 0) return [];
  const topics = topicsUnderSuperNodes(
    db,
    usable.map((u) => u.superId),
  );
  const kindOf = new Map(usable.map((s) => [s.superId, s.kind]));
  const seeds = new Set(seedIds);
  return topics
    .filter((t) => !seeds.has(t.topicId))
    .map((t) => ({ topicId: t.topicId, superId: t.superId, via: kindOf.get(t.superId) === 'topic' ? ('super-topic' as const) : ('super-fact' as const) }));
}

/** Root-to-leaf paths of the given topics' mind maps, in DFS order (rows sharing an ancestor stay consecutive). */
function factPaths(db: Db, topicIds: number[]): { paths: number[][]; nodes: Map<number, NodeRow> } {
  const rows = mindMapsOfTopics(db, topicIds);
  const nodes = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<number, number[]>();
  for (const r of rows) {
    if (r.parent_id === null) continue;
    const list = children.get(r.parent_id) ?? [];
    list.push(r.id);
    children.set(r.parent_id, list);
  }
  const paths: number[][] = [];
  const dfs = (id: number, prefix: number[]) => {
    const path = [...prefix, id];
    const kids = children.get(id);
    if (!kids?.length) paths.push(path);
    else for (const c of kids) dfs(c, path);
  };
  for (const t of topicIds) if (nodes.has(t)) dfs(t, []);
  return { paths, nodes };
}

export function createPgrRetriever(overrides: Partial<PgrRetrieverParams> = {}): Retriever {
  const p: PgrRetrieverParams = { ...DEFAULT_PGR_RETRIEVER_PARAMS, ...overrides };
  return async (ctx: RetrievalContext, question: string, k: number): Promise<RetrievalResult> => {
    const { db, cache } = ctx;
    const keyPoints = ctx.keyPoints?.length ? ctx.keyPoints : fastKeyPoints(question);
    const kpVectors = await Promise.all(keyPoints.map((kp) => cache.embedQuery(kp)));
    const qa = await analyseQuery(ctx, question);
    const q = qa.embedding;
    const topics = topicIndex(ctx);
    const topicScores = topics.matrix.scores(q);
    const simOf = (id: number) => {
      const v = topics.matrix.vector(id);
      return v ? dot(v, q) : undefined;
    };

    const topicOf = (id: number, via: PgrTopic['via'], superId?: number): PgrTopic => ({
      id,
      docId: topics.docOf.get(id) ?? -1,
      text: topics.textOf.get(id) ?? '',
      similarity: simOf(id) ?? 0,
      via,
      ...(superId !== undefined ? { superId } : {}),
    });
    // Seed topics (the paper's V_t^seed): every topic of the notes the fusion ranks first. As many seed
    // notes as a retrieval's cut-off holds notes (5), because the walk below only adds: with 3 seed topics
    // and walked topics taking the other slots, the fusion's fourth note (SilverBullet's Troubleshooting,
    // for "?resetClient=1") never reached the matrices, and pgr trailed hybrid.
    const { documents: fused, passages: fusedPassages, denseWeight, lexicalFirst } = await graphSeededDocuments(ctx, qa);
    const withVector = (docId: number) => (topics.topicsOf.get(docId) ?? []).filter((id) => topics.matrix.vector(id));
    const seedNotes = fused.filter((d) => withVector(d.docId).length > 0).slice(0, p.seedNotes);
    const seedTopics = seedNotes.flatMap((d) => withVector(d.docId)).map((id) => topicOf(id, 'seed'));
    const chosen = new Set(seedTopics.map((t) => t.id));
    // Topic walking through super-topics and fact walking through super-facts (V_st, V_sf): the candidate
    // topics are the union V^con = V^seed ∪ V_st ∪ V_sf, so walked topics join the seeds, never replace them.
    // Walked topics are taken by similarity to the question, a few at most: each one's paths compete in the
    // matrices, and a weak embedder's matrices promote whatever paths they are given.
    const walked: PgrTopic[] = [];
    const walkedCandidates = walk(
      ctx,
      seedTopics.map((t) => t.id),
      p.maxSuperMembers,
    )
      .map((w) => ({ ...w, sim: simOf(w.topicId) }))
      .filter((w) => w.sim !== undefined)
      .sort((a, b) => b.sim! - a.sim!);
    for (const w of walkedCandidates) {
      if (walked.length >= p.maxWalked) break;
      if (chosen.has(w.topicId)) continue;
      chosen.add(w.topicId);
      walked.push(topicOf(w.topicId, w.via, w.superId));
    }
    if (p.fillBySimilarity && seedNotes.length < p.seedNotes) {
      const want = chosen.size + p.seedNotes - seedNotes.length;
      for (const { id } of topK(topicScores, topics.matrix.ids, want + chosen.size)) {
        if (chosen.size >= want) break;
        if (chosen.has(id)) continue;
        chosen.add(id);
        walked.push(topicOf(id, 'fusion'));
      }
    }

    const { paths, nodes } = factPaths(db, [...chosen]);
    const mm = cache.matrix('mm');
    const template = buildTemplate(paths, (id) => mm.vector(id), mm.dim);
    const agg = aggregate(template, kpVectors, p);
    const rowScores = withFusion(agg.rowScores, paths, nodes, fused, p.wFusion, p.seedNotes);
    const leafOf = (r: number): number => {
      const path = paths[r]!;
      return path[path.length - 1]!;
    };
    // One context per passage: a fact whose passage an earlier path already returned adds nothing to it.
    // Where a note is many passages (a guide), a fact's passage is shown in its section's span, as loci
    // shows it (passage-spans.ts), and a fact whose passage an earlier span holds adds nothing either.
    const ranked = topRows(rowScores, rowScores.length);
    const spans = severalPassagesPerNote(ctx) ? passageSpans(db, [...new Set(ranked.flatMap((r) => nodes.get(leafOf(r))!.chunk_id ?? []))]) : undefined;
    const rows = spreadRows(ranked, (r) => nodes.get(leafOf(r))!, p.rowsPerNote, k, spans && ((id) => spans.get(id) ?? [id]));

    // PG-RAG hands the model the fact paths as structured context; a fact path alone is one sentence
    // under its topic, too little to answer from when the path is right but the answer sits beside the
    // fact (pgr's answer-in-context trailed hybrid's by 20–30 points on every dev set). So each context is
    // the fact path with its source: the passage the fact was extracted from, with the passage's lines (the
    // generated answer shows the path as the source's head and the passage below it; the extractive answer
    // cites the fact itself, with its own lines).
    const docs = documentsByIds(db, [...new Set(rows.map((r) => nodes.get(leafOf(r))!.document_id))]);
    const passageIds = rows.flatMap((r) => nodes.get(leafOf(r))!.chunk_id ?? []);
    const shownText = new Map(
      spans
        ? spanContexts(db, passageIds.map((id) => ({ id, score: 0 })), spans).map((c) => [c.chunkId!, c])
        : chunkRows(db, passageIds).map((c) => [c.id, { text: c.text, lineFrom: c.line_from, lineTo: c.line_to }]),
    );
    const contexts: RetrievedContext[] = rows.map((r) => {
      const leaf = nodes.get(leafOf(r))!;
      const doc = docs.get(leaf.document_id)!;
      const passage = leaf.chunk_id === null ? undefined : shownText.get(leaf.chunk_id);
      // The lines are those of the text shown (the passage): a model citing this context cites them.
      return {
        text: passage?.text ?? leaf.text,
        docId: leaf.document_id,
        docPath: doc.rel_path,
        docTitle: doc.title,
        lineFrom: passage?.lineFrom ?? leaf.line_from ?? 1,
        lineTo: passage?.lineTo ?? leaf.line_to ?? leaf.line_from ?? 1,
        factPath: leaf.path_text,
        score: rowScores[r]!,
        kind: 'fact-path',
        ...(passage !== undefined ? { chunkId: leaf.chunk_id! } : {}),
      };
    });

    // In a folder of guides each note's fact paths are followed by its passages the fusion ranks near the
    // top (further-passages.ts). Documentation dev sets, GloVe, share of the reference answer's words in
    // the first 5 contexts, SilverBullet / Foam: passages alone 68.9 / 70.5, in their spans 69.5 / 73.8,
    // with further passages 73.8 / 80.4 (hybrid 70.6 / 72.8); recall@5 unchanged.
    const shownContexts = spans ? withFurtherPassages(ctx, contexts, fusedPassages, spans, k) : contexts;

    const explanation: PgrExplanation = {
      method: 'pgr',
      keyPoints,
      denseWeight,
      lexicalFirst,
      sectionSpans: spans !== undefined,
      seedTopics,
      walkedTopics: walked,
      seedFactPaths: agg.runs.flatMap((run) =>
        run.seeds.map((s) => ({
          keyPoint: keyPoints[run.keyPoint] ?? '',
          nodeId: leafOf(s.seedRow),
          pathText: nodes.get(leafOf(s.seedRow))?.path_text ?? '',
          similarity: s.seedSim,
          ancestorId: s.ancestorId,
          rowsReached: s.bottom - s.top + 1,
        })),
      ),
      factPaths: rows.map((r) => ({ nodeId: leafOf(r), pathText: nodes.get(leafOf(r))!.path_text, score: rowScores[r]! })),
      mindMap: nestedMindMap(rows.map((r) => paths[r]!), nodes, (id) => nodeScore(agg.am, template.ids, id)),
      templateRows: template.rows,
    };
    return { contexts: shownContexts, explanation, query: qa };
  };
}

/**
 * Matrix scores (scaled to 0–1) plus w times the row's note's fusion rank as n / (n + rank) (1 for the
 * fusion's first note, ½ for the n-th, 0 outside the fusion). A row no seed reached keeps its note's
 * fusion term, so a note the words found is not dropped because the key points' vectors missed every one
 * of its paths; a walked note outranks a seed note only when the matrices favour its paths by more than
 * the fusion favours the seed. By rank, not by the fusion's score: reciprocal-rank scores are flat (the
 * tenth note scores ~0.9 of the first), which left the matrices alone to order the notes.
 */
function withFusion(rowScores: Float32Array, paths: number[][], nodes: Map<number, NodeRow>, fused: { docId: number }[], w: number, n: number): Float32Array {
  const out = new Float32Array(rowScores.length);
  let max = 0;
  for (const s of rowScores) max = Math.max(max, s);
  const fusion = new Map(fused.map((d, rank) => [d.docId, n > 0 ? n / (n + rank) : 0]));
  paths.forEach((path, r) => {
    const s = rowScores[r]!;
    const doc = nodes.get(path[path.length - 1]!)?.document_id;
    out[r] = (s > 0 && max > 0 ? s / max : 0) + w * (doc === undefined ? 0 : (fusion.get(doc) ?? 0));
  });
  return out;
}

/**
 * The best rows, at most `perNote` of each note first, then the rest in order, k in all; a row whose
 * fact's passage an earlier row already holds is left out.
 */
function spreadRows(ranked: number[], leafOf: (r: number) => NodeRow, perNote: number, k: number, spanOf: (chunkId: number) => number[] = (id) => [id]): number[] {
  const taken = new Map<number, number>();
  const passages = new Set<number>();
  const first: number[] = [];
  const later: number[] = [];
  for (const r of ranked) {
    const leaf = leafOf(r);
    if (leaf.chunk_id !== null) {
      if (passages.has(leaf.chunk_id)) continue;
      for (const id of spanOf(leaf.chunk_id)) passages.add(id);
    }
    const c = taken.get(leaf.document_id) ?? 0;
    taken.set(leaf.document_id, c + 1);
    (c < perNote ? first : later).push(r);
  }
  return [...first, ...later].slice(0, k);
}

/** Sum of a node's cells in the aggregate matrix (a shared ancestor counts once per row it heads). */
function nodeScore(am: Float32Array, ids: Int32Array, id: number): number {
  let s = 0;
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) s += am[i]!;
  return s;
}

/** The chosen paths merged into trees, one per topic, in the order the paths were chosen. */
function nestedMindMap(paths: number[][], nodes: Map<number, NodeRow>, score: (id: number) => number): PgrMindMapNode[] {
  const roots: PgrMindMapNode[] = [];
  const made = new Map<number, PgrMindMapNode>();
  for (const path of paths) {
    let siblings = roots;
    for (const id of path) {
      let node = made.get(id);
      if (!node) {
        const r = nodes.get(id)!;
        node = { id, kind: r.kind, text: r.text, score: score(id), lineFrom: r.line_from, lineTo: r.line_to, children: [] };
        made.set(id, node);
        siblings.push(node);
      }
      siblings = node.children;
    }
  }
  return roots;
}

export const pgrRetriever: Retriever = createPgrRetriever();
