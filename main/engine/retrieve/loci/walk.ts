// The walk: personalized PageRank over the entity–chunk–note graph (../ppr.ts), weighted by how far the
// corpus's notes refer to each other (a walk over notes that name nothing only adds noise).
import type { RetrievalContext } from '../retriever.js';
import type { QueryAnalysis } from '../query.js';
import type { PprDocument } from '../ppr.js';
import { pprRank } from '../ppr.js';
import { walkWeightOf, type LociParams } from '../loci-params.js';

/** Below this weight the walk is not run at all (it could not move a rank, and costs a few ms). */
const MIN_WALK_WEIGHT = 0.01;

export function walkWeight(referencing: number, p: LociParams): { weight: number; run: boolean } {
  const weight = p.wPpr * walkWeightOf(referencing, p);
  return { weight, run: weight >= MIN_WALK_WEIGHT };
}

/** The walk's notes, best first (none when its weight is below the floor). */
export async function walkRanking(ctx: RetrievalContext, qa: QueryAnalysis, referencing: number, p: LociParams): Promise<PprDocument[]> {
  return walkWeight(referencing, p).run ? (await pprRank(ctx, qa, p.ppr)).documents.slice(0, p.depth) : [];
}
