// The seed notes of hig and pgr: the fusion of BM25 and dense at passage grain (issue 12: "seed hig's
// document level and pgr's topics from the lexical+dense fusion instead of dense similarity alone"), with
// the dense ranking weighted by how far the index's document graph says it agrees with BM25.
//
// The plain fusion (rank-fusion.ts) counts dense fully only when its top notes are BM25's top notes. That
// guards against an embedder that does not know the corpus (GloVe on Chinese news ranks unrelated notes),
// but it also silences dense where BM25 is the one that is lost: on SilverBullet, "How can I make the
// container run as a particular user and group id?" has BM25 on Virtual Pages and Mermaid, dense on the
// Docker, Space Manager and Authentication notes, which share 1 note of 10, and the Docker note (hybrid's
// second) fell to seventh, out of both methods' reach. The document graph — KG-Retriever's document layer,
// each note linked to the notes most similar to it — tells the two cases apart: dense's notes there are
// neighbours of BM25's (same topic, other words), while an embedder that does not know the language
// ranks notes no neighbourhood of BM25's holds.
import type { RetrievalContext } from './retriever.js';
import type { QueryAnalysis } from './query.js';
import { denseAgreementWeight, documentsOf, firstStageNotes, fusedChunks, MIN_DENSE_WEIGHT, type FusedDocument } from './rank-fusion.js';
import type { Scored } from '../embed/vector-matrix.js';
import { RRF_K } from './hybrid.js';
import { docEdgesOf } from '../store/hig.js';
import { embedderQuality } from './embedder-quality.js';

/** Chunks read from each first-stage ranking: hybrid's depth, so that with dense counted fully the seeds are hybrid's ranking. */
export const SEED_DEPTH = 40;
/** Top notes of each ranking compared. */
export const NEIGHBOURHOOD_DEPTH = 10;
/**
 * Chance-corrected share of dense's top notes inside BM25's neighbourhood at which dense counts fully.
 * Higher than rank-fusion.ts's 0.3 for exact overlap, since a neighbourhood is easier to land in: 0.3 here
 * counted dense fully on a Foam question where it was wrong (all dev sets, one run).
 */
export const FULL_GRAPH_AGREEMENT = 0.5;

/**
 * The share of dense's top notes that are BM25's top notes or their document-graph neighbours, corrected
 * for chance (the share of the corpus that neighbourhood covers: on 86 Foam notes BM25's top 10 and their
 * neighbours are half the folder, so landing there says little), as a dense weight in [MIN_DENSE_WEIGHT, 1].
 * Where that neighbourhood is the whole corpus the graph cannot tell, and the plain overlap decides.
 */
export function graphAgreementWeight(ctx: RetrievalContext, lexical: number[], dense: number[], depth = NEIGHBOURHOOD_DEPTH): number {
  const top = lexical.slice(0, depth);
  const denseTop = dense.slice(0, depth);
  if (top.length === 0 || denseTop.length === 0) return 1;
  const near = new Set(top);
  for (const e of docEdgesOf(ctx.db, top)) near.add(e.dst);
  const notes = Math.max(near.size, ctx.cache.matrix('doc').size);
  const chance = near.size / notes;
  if (chance >= 1) return denseAgreementWeight(lexical, dense, depth);
  const observed = denseTop.filter((d) => near.has(d)).length / denseTop.length;
  const agreement = Math.max(0, (observed - chance) / (1 - chance));
  return Math.max(MIN_DENSE_WEIGHT, Math.min(1, agreement / FULL_GRAPH_AGREEMENT));
}

/** How `--explain` says that BM25's first note leads the seeds. */
export const LEXICAL_FIRST = "; BM25's first note leads, as the embedder is not trusted on these notes";

export interface GraphSeeds {
  /** Notes in seed order. */
  documents: FusedDocument[];
  /** The fused passage ranking the notes come from. */
  passages: Scored[];
  denseWeight: number;
  /** BM25's first note was moved to the front (the embedder is not trusted on this corpus). */
  lexicalFirst: boolean;
}

/**
 * Notes in the order of their best passage in the graph-weighted fusion, with the dense weight used.
 * Dense counts at least as far as the embedder is trusted on this corpus (embedder-quality.ts): where a
 * model that reads words in context disagrees with BM25, BM25 is as likely to be the one that is lost
 * (e5 on HotpotQA train-100: dense recall@5 87.5 against BM25's 80), and the agreement alone held hig
 * below hybrid there. The built-in GloVe is trusted 0, so with it the agreement alone decides, as before,
 * and BM25's first note leads (withLexicalFirst).
 */
export async function graphSeededDocuments(ctx: RetrievalContext, qa: QueryAnalysis): Promise<GraphSeeds> {
  const { lexical, dense } = firstStageNotes(ctx, qa, SEED_DEPTH);
  const agreement = graphAgreementWeight(
    ctx,
    lexical.map((x) => x.docId),
    dense.map((x) => x.docId),
  );
  const trust = (await embedderQuality(ctx)).weight;
  const denseWeight = Math.max(agreement, trust);
  const passages = fusedChunks(ctx, qa, SEED_DEPTH, RRF_K, denseWeight);
  const fused = documentsOf(ctx, passages);
  const documents = trust > 0 ? fused : withLexicalFirst(fused, lexical[0]?.docId);
  return { documents, passages, denseWeight, lexicalFirst: documents !== fused };
}

/**
 * The notes with BM25's first note moved to the front. Used where the embedder is not trusted on the
 * corpus (GloVe; a model that does not read the notes' language): reciprocal ranks are flat, so a note
 * BM25 puts first and dense puts thirtieth (1/61 + 1/90) falls behind notes both rank fifth (2/65), and
 * an untrusted dense ranking should not push out the note the question's words found best. All dev sets,
 * GloVe, recall@5, hig / pgr: HotpotQA train-100 70.5 / 71.0 → 73.5 / 74.0, MuSiQue 55 / 60 → 55 / 65,
 * CRUD 1/2/3-doc 45.7 / 50.5 / 48.2 → 46.0 / 51.2 / 48.9 (pgr 45.5 / 50.5 / 47.8 → 45.7 / 51.2 / 48.6),
 * SilverBullet 90.4 → 92.3; the rest unchanged. Among the first 3 instead of first: the same recall.
 * With MiniLM and e5 (trusted) it cost hig 1–2 points of SilverBullet's answer words, so it is not applied.
 */
export function withLexicalFirst(documents: FusedDocument[], first: number | undefined): FusedDocument[] {
  const at = documents.findIndex((d) => d.docId === first);
  return at <= 0 ? documents : [documents[at]!, ...documents.slice(0, at), ...documents.slice(at + 1)];
}
