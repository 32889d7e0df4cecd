// PG-RAG's pseudo-graph retrieval (§2.4): seed topics by similarity, topic walking through super-topics and
// fact walking through super-facts to a handful of candidate topics, their fact paths loaded into template
// matrices, and the matrix core (./matrices.ts) choosing the top-K fact paths.
import type { Db } from '../../store/db.js';
import type { RetrievedContext } from '../../types.js';
import type { RetrievalContext, RetrievalResult, Retriever } from '../retriever.js';
import { VectorMatrix, topK } from '../../embed/vector-matrix.js';
import { dot } from '../../embed/embedder.js';
import { DEFAULT_PGR_PARAMS, aggregate, buildTemplate, topRows, type PgrParams } from './matrices.js';
import { fastKeyPoints } from './key-points.js';

export interface PgrRetrieverParams extends PgrParams {
  /** Topics picked by similarity to the question. */
  seedTopics: number;
  /** Candidate topics after walking (PG-RAG walks to ~6). */
  maxTopics: number;
  /** When walking finds fewer topics, fill up with the next most similar ones. */
  fillBySimilarity: boolean;
  /** Super nodes with more members are hubs (shared boilerplate), not walked through. */
  maxSuperMembers: number;
}

export const DEFAULT_PGR_RETRIEVER_PARAMS: PgrRetrieverParams = { ...DEFAULT_PGR_PARAMS, seedTopics: 3, maxTopics: 6, fillBySimilarity: true, maxSuperMembers: 50 };

export interface PgrTopic {
  id: number;
  docId: number;
  text: string;
  similarity: number;
  /** How the topic joined the candidates. */
  via: 'seed' | 'super-topic' | 'super-fact' | 'similarity';
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
  seedTopics: PgrTopic[];
  walkedTopics: PgrTopic[];
  seedFactPaths: { keyPoint: string; nodeId: number; pathText: string; similarity: number; ancestorId: number; rowsReached: number }[];
  factPaths: { nodeId: number; pathText: string; score: number }[];
  /** The chosen paths as one nested mind map per note. */
  mindMap: PgrMindMapNode[];
  templateRows: number;
}

interface NodeRow {
  id: number;
  document_id: number;
  parent_id: number | null;
  kind: string;
  text: string;
  path_text: string;
  line_from: number | null;
  line_to: number | null;
}

interface TopicIndex {
  matrix: VectorMatrix;
  docOf: Map<number, number>;
  textOf: Map<number, string>;
}

function topicIndex(ctx: RetrievalContext): TopicIndex {
  return ctx.cache.derived('pgr:topics', () => {
    const mm = ctx.cache.matrix('mm');
    const rows = ctx.db.prepare("SELECT id, document_id, text FROM mm_nodes WHERE kind = 'topic' ORDER BY id").all() as {
      id: number;
      document_id: number;
      text: string;
    }[];
    const entries = rows.flatMap((r) => {
      const vector = mm.vector(r.id);
      return vector ? [{ id: r.id, vector }] : [];
    });
    return {
      matrix: new VectorMatrix(mm.dim, entries),
      docOf: new Map(rows.map((r) => [r.id, r.document_id])),
      textOf: new Map(rows.map((r) => [r.id, r.text])),
    };
  });
}

/** Members per super node, for leaving out hubs (boilerplate lines shared by hundreds of notes say nothing). */
function superSizes(ctx: RetrievalContext): Map<number, number> {
  return ctx.cache.derived('pgr:super-sizes', () => {
    const rows = ctx.db.prepare('SELECT super_id AS id, count(*) AS n FROM super_members GROUP BY super_id').all() as { id: number; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  });
}

/** Topics sharing a super-topic node with a seed, and topics of facts sharing a super-fact node with a seed topic's fact. */
function walk(ctx: RetrievalContext, seedIds: number[], maxSuperMembers: number): { topicId: number; via: 'super-topic' | 'super-fact'; superId: number }[] {
  const { db } = ctx;
  const sizes = superSizes(ctx);
  const supers = db
    .prepare(
      `SELECT s.id AS superId, s.kind FROM super_members m JOIN super_nodes s ON s.id = m.super_id AND s.kind = 'topic'
       WHERE m.node_id IN (SELECT value FROM json_each(?))
       UNION
       SELECT s.id AS superId, s.kind FROM mm_nodes seed
       JOIN mm_nodes f ON f.document_id = seed.document_id AND f.extractor = seed.extractor AND +f.kind = 'fact'
       JOIN super_members m ON m.node_id = f.id
       JOIN super_nodes s ON s.id = m.super_id AND s.kind = 'fact'
       WHERE seed.id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(seedIds), JSON.stringify(seedIds)) as { superId: number; kind: 'topic' | 'fact' }[];
  const usable = supers.filter((s) => (sizes.get(s.superId) ?? 0) <= maxSuperMembers);
  if (usable.length === 0) return [];
  const topics = db
    .prepare(
      `SELECT DISTINCT m.super_id AS superId, t.id AS topicId FROM super_members m
       JOIN mm_nodes n ON n.id = m.node_id
       JOIN mm_nodes t ON t.document_id = n.document_id AND t.extractor = n.extractor AND +t.kind = 'topic'
       WHERE m.super_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(usable.map((s) => s.superId))) as { superId: number; topicId: number }[];
  const kindOf = new Map(usable.map((s) => [s.superId, s.kind]));
  const seeds = new Set(seedIds);
  return topics
    .filter((t) => !seeds.has(t.topicId))
    .map((t) => ({ topicId: t.topicId, superId: t.superId, via: kindOf.get(t.superId) === 'topic' ? ('super-topic' as const) : ('super-fact' as const) }));
}

/** Root-to-leaf paths of the given topics' mind maps, in DFS order (rows sharing an ancestor stay consecutive). */
function factPaths(db: Db, topicIds: number[]): { paths: number[][]; nodes: Map<number, NodeRow> } {
  const rows = db
    .prepare(
      `SELECT n.id, n.document_id, n.parent_id, n.kind, n.text, n.path_text, n.line_from, n.line_to FROM mm_nodes n
       JOIN mm_nodes t ON t.document_id = n.document_id AND t.extractor = n.extractor
       WHERE t.id IN (SELECT value FROM json_each(?)) ORDER BY n.parent_id, n.ord, n.id`,
    )
    .all(JSON.stringify(topicIds)) as NodeRow[];
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
    const q = await cache.embedQuery(question);
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
    const seedTopics = topK(topicScores, topics.matrix.ids, p.seedTopics).map((s) => topicOf(s.id, 'seed'));
    const chosen = new Set(seedTopics.map((t) => t.id));
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
      if (chosen.size >= p.maxTopics) break;
      if (chosen.has(w.topicId)) continue;
      chosen.add(w.topicId);
      walked.push(topicOf(w.topicId, w.via, w.superId));
    }
    if (p.fillBySimilarity && chosen.size < p.maxTopics) {
      for (const s of topK(topicScores, topics.matrix.ids, p.maxTopics + chosen.size)) {
        if (chosen.size >= p.maxTopics) break;
        if (chosen.has(s.id)) continue;
        chosen.add(s.id);
        walked.push(topicOf(s.id, 'similarity'));
      }
    }

    const { paths, nodes } = factPaths(db, [...chosen]);
    const mm = cache.matrix('mm');
    const template = buildTemplate(paths, (id) => mm.vector(id), mm.dim);
    const agg = aggregate(template, kpVectors, p);
    const rows = topRows(agg.rowScores, k);
    const leafOf = (r: number) => paths[r][paths[r].length - 1];

    const docs = new Map(
      (
        db.prepare('SELECT id, rel_path, title FROM documents WHERE id IN (SELECT value FROM json_each(?))').all(
          JSON.stringify([...new Set(rows.map((r) => nodes.get(leafOf(r))!.document_id))]),
        ) as { id: number; rel_path: string; title: string }[]
      ).map((d) => [d.id, d]),
    );
    const contexts: RetrievedContext[] = rows.map((r) => {
      const leaf = nodes.get(leafOf(r))!;
      const doc = docs.get(leaf.document_id)!;
      return {
        text: leaf.text,
        docId: leaf.document_id,
        docPath: doc.rel_path,
        docTitle: doc.title,
        lineFrom: leaf.line_from ?? 1,
        lineTo: leaf.line_to ?? leaf.line_from ?? 1,
        factPath: leaf.path_text,
        score: agg.rowScores[r],
        kind: 'fact-path',
      };
    });

    const explanation: PgrExplanation = {
      method: 'pgr',
      keyPoints,
      seedTopics,
      walkedTopics: walked,
      seedFactPaths: agg.runs.flatMap((run) =>
        run.seeds.map((s) => ({
          keyPoint: keyPoints[run.keyPoint],
          nodeId: leafOf(s.seedRow),
          pathText: nodes.get(leafOf(s.seedRow))?.path_text ?? '',
          similarity: s.seedSim,
          ancestorId: s.ancestorId,
          rowsReached: s.bottom - s.top + 1,
        })),
      ),
      factPaths: rows.map((r) => ({ nodeId: leafOf(r), pathText: nodes.get(leafOf(r))!.path_text, score: agg.rowScores[r] })),
      mindMap: nestedMindMap(rows.map((r) => paths[r]), nodes, (id) => nodeScore(agg.am, template.ids, id)),
      templateRows: template.rows,
    };
    return { contexts, explanation };
  };
}

/** Sum of a node's cells in the aggregate matrix (a shared ancestor counts once per row it heads). */
function nodeScore(am: Float32Array, ids: Int32Array, id: number): number {
  let s = 0;
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) s += am[i];
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
