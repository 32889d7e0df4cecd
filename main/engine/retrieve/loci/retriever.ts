// `loci`, the default method, as a pipeline of named stages: first-stage rankings (lexical, dense, title,
// walk) fused per note, title evidence, the second hop through bridges, then passage choice. How each
// weight was chosen, and its history: docs/tuning.md (loci).
import type { RetrievalContext, RetrievalResult, Retriever } from '../retriever.js';
import type { Scored } from '../../embed/vector-matrix.js';
import type { PprDocument } from '../ppr.js';
import { analyseQuery, searchedWords, type QueryAnalysis } from '../query.js';
import { denseAgreementWeight, firstStageNotes } from '../rank-fusion.js';
import { embedderQuality, type EmbedderQuality } from '../embedder-quality.js';
import { entityGraph } from '../ppr.js';
import { titleNameShare } from '../title-names.js';
import { withJoinedHanWords } from '../zh/han-recut.js';
import { referencingShare, type TitleMentions } from '../../graph/walk/title-mentions.js';
import { DEFAULT_LOCI_PARAMS, namesWeightOf, type LociParams } from '../loci-params.js';
import { LociDocuments, type LociDocument } from './documents.js';
import { lexicalRanking, type LexicalRanking } from './lexical.js';
import { titleIndex, titleRanking, type TitleIndex } from './title-evidence.js';
import { walkRanking, walkWeight } from './walk.js';
import { fuseFirstStage, type FusionWeights } from './fusion.js';
import { creditNamedTitles } from './title-in-question.js';
import { addBridges } from './bridges.js';
import { rankedPassages } from './passages.js';
import type { LociExplanation } from './explanation.js';

export { formatLociExplanation, type LociDocument, type LociExplanation } from './explanation.js';
export { namedTitles } from './title-evidence.js';

export function lociParams(overrides: Partial<LociParams> = {}): LociParams {
  return {
    ...DEFAULT_LOCI_PARAMS,
    ...overrides,
    ppr: { ...DEFAULT_LOCI_PARAMS.ppr, ...overrides.ppr },
    proximity: { ...DEFAULT_LOCI_PARAMS.proximity, ...overrides.proximity },
    passages: { ...DEFAULT_LOCI_PARAMS.passages, ...overrides.passages },
  };
}

/** What the question and corpus give before any weight is applied: the rankings and corpus measures. */
export interface LociStages {
  analysed: QueryAnalysis;
  qa: QueryAnalysis;
  titles: TitleIndex;
  mentions: TitleMentions;
  referencing: number;
  nameShare: number | null;
  trust: EmbedderQuality | null;
  /** Dense's weight from its agreement with BM25 on this question (rank-fusion.ts), before trust. */
  denseAgreement: number;
  dense: { docId: number; chunkId: number }[];
  lexical: LexicalRanking;
  byTitle: Scored[];
  walk: PprDocument[];
}

/** The rankings `p` asks for (a zero weight skips its ranking, a walk below its floor is not run). */
export async function lociStages(ctx: RetrievalContext, question: string, p: LociParams): Promise<LociStages> {
  const analysed = await analyseQuery(ctx, question);
  const qa = p.joinHanWords ? withJoinedHanWords(ctx, analysed) : analysed;
  const titles = titleIndex(ctx);
  // Per index generation: which notes mention which titles, how far notes refer to each other, how far titles are names.
  const mentions = entityGraph(ctx).titleMentions;
  const referencing = ctx.cache.derived('loci:referencing-share', () => referencingShare(mentions));
  const nameShare = ctx.cache.derived('loci:title-name-share', () => titleNameShare(ctx.db, mentions));
  const first = firstStageNotes(ctx, qa, p.depth);
  const trust = p.adaptive && p.wDense ? await embedderQuality(ctx) : null;
  const lexical = lexicalRanking(ctx, qa, p);
  const byTitle = p.wTitle ? titleRanking(titles, searchedWords(qa.terms, qa.variants)).slice(0, p.depth) : [];
  const walk = await walkRanking(ctx, qa, referencing, p);
  return { analysed, qa, titles, mentions, referencing, nameShare, trust, denseAgreement: first.wDense, dense: first.dense, lexical, byTitle, walk };
}

export interface LociRanking {
  ranked: LociDocument[];
  shownChunk: Map<number, number>;
  weights: FusionWeights;
  anchorWeight: number;
}

/** The weighted part: fusion, title evidence and bridges over the stages' rankings (cheap; the fit reruns it). */
export function rankStages(s: LociStages, p: LociParams, k: number): LociRanking {
  const rrf = (rank: number) => 1 / (p.rrfK + rank + 1);
  const wDense = s.trust ? p.wDense * s.trust.weight * s.denseAgreement : p.wDense;
  const dense = wDense ? s.dense : [];
  const byTitle = p.wTitle ? s.byTitle : [];
  const walkW = walkWeight(s.referencing, p);
  const walk = walkW.run ? s.walk : [];
  // Each ranking beside BM25 counts by how far its top agrees with BM25's on this question.
  const lexicalIds = s.lexical.notes.map((d) => d.docId);
  const agree = (ids: number[]) => (p.adaptive ? denseAgreementWeight(lexicalIds, ids) : 1);
  const weights: FusionWeights = {
    bm25: p.wBm25,
    bigramShare: p.bigramShare,
    dense: wDense,
    title: p.wTitle * agree(byTitle.map((x) => x.id)),
    ppr: walk.length ? walkW.weight * agree(walk.map((w) => w.docId)) : 0,
  };
  const anchorWeight = p.wBridge + (p.wAnchorBridge - p.wBridge) * namesWeightOf(s.nameShare, p);
  const docs = new LociDocuments(s.titles.titleOf);
  const lexical = p.wBm25 ? s.lexical.notes : [];
  const shownChunk = fuseFirstStage(docs, { lexical, ownOrder: s.lexical.ownOrder, ownShare: s.lexical.ownShare, dense, byTitle, walk }, weights, rrf);
  creditNamedTitles(docs, s.qa, s.mentions, p, rrf(0));
  addBridges(docs, s.mentions, p, anchorWeight);
  return { ranked: docs.ranked(k), shownChunk, weights, anchorWeight };
}

export function createLociRetriever(overrides: Partial<LociParams> = {}): Retriever {
  const p = lociParams(overrides);
  return async (ctx: RetrievalContext, question: string, k: number): Promise<RetrievalResult> => {
    const s = await lociStages(ctx, question, p);
    const { ranked, shownChunk, weights, anchorWeight } = rankStages(s, p, k);
    const contexts = rankedPassages(ctx, ranked, shownChunk, s.qa.embedding, s.lexical, p.passages, k);
    const explanation: LociExplanation = {
      method: 'loci',
      params: p,
      weights,
      referencingShare: s.referencing,
      titleNameShare: s.nameShare,
      anchorBridge: anchorWeight,
      embedderTrust: s.trust,
      joinedWords: s.qa.terms.filter((t) => !s.analysed.terms.includes(t)),
      documents: ranked,
    };
    return { contexts, explanation, query: s.qa };
  };
}

export const lociRetriever: Retriever = createLociRetriever();
