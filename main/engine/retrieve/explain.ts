import type { HigExplanation } from './hig/retriever.js';
import type { PgrExplanation } from './pgr/retriever.js';
import { formatLociExplanation, type LociExplanation } from './loci.js';
import { formatHigExplanation } from './hig/explain.js';
import { formatPgrExplanation } from './pgr/explain.js';
import { formatPprExplanation, type PprExplanation } from './ppr.js';

export type Explanation = HigExplanation | PgrExplanation | PprExplanation | LociExplanation;

/** `--explain` as text: how the graph retrievers reached each context. bm25/dense/hybrid have no walk to show. */
export function formatExplanation(x: unknown): string {
  const e = x as Explanation | undefined;
  switch (e?.method) {
    case 'hig':
      return formatHigExplanation(e);
    case 'pgr':
      return formatPgrExplanation(e);
    case 'ppr':
      return formatPprExplanation(e);
    case 'loci':
      return formatLociExplanation(e);
    default:
      return 'This method ranks passages directly (no graph walk to explain); try --method loci, ppr, hig or pgr.';
  }
}
