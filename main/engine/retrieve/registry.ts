// Every retrieval method, one entry each: what the CLI, bench, settings, `--explain` and the Ask picker
// list and run. `satisfies Record<RetrievalMethod, …>` makes the compiler refuse a method of the
// contract's enum (main/contract/shapes/domain.ts) without an entry here, or an entry not in the enum.
import type { RetrievalMethod } from '../types.js';
import type { Retriever } from './retriever.js';
import { bm25Retriever } from './bm25.js';
import { denseRetriever } from './dense.js';
import { hybridRetriever } from './hybrid.js';
import { higRetriever, type HigExplanation } from './hig/retriever.js';
import { pgrRetriever, type PgrExplanation } from './pgr/retriever.js';
import { formatHigExplanation } from './hig/explain.js';
import { formatPgrExplanation } from './pgr/explain.js';
import { formatLociExplanation, lociRetriever, type LociExplanation } from './loci/retriever.js';
import { formatPprExplanation, pprRetriever, type PprExplanation } from './ppr.js';

/** The graph layers a method walks (built at index time; see main/engine/graph/). */
export type GraphLayer = 'entity-graph' | 'hig' | 'pseudo-graph';

export interface RetrievalMethodEntry {
  /** Shown in pickers. */
  label: string;
  /** One line on what it does, for settings and `--help`. */
  description: string;
  run: Retriever;
  needs: {
    /** PG-RAG's key points cost a model generation per question: asked for only where read. */
    keyPoints: boolean;
    embedder: boolean;
    graph: GraphLayer[];
  };
  /** `--explain` as text, from the explanation `run` returns; null: it ranks passages directly, nothing to explain. */
  explain: ((explanation: unknown) => string) | null;
}

export const RETRIEVAL_METHODS = {
  loci: {
    label: 'Loci (best)',
    description: 'the default: BM25, title evidence and a walk over the entity graph fused per note, then the second hop through notes the first ones name',
    run: lociRetriever,
    needs: { keyPoints: false, embedder: true, graph: ['entity-graph'] },
    explain: (x) => formatLociExplanation(x as LociExplanation),
  },
  hybrid: {
    label: 'Hybrid',
    description: 'BM25 and dense fused by reciprocal rank',
    run: hybridRetriever,
    needs: { keyPoints: false, embedder: true, graph: [] },
    explain: null,
  },
  bm25: {
    label: 'BM25',
    description: 'the question\'s words, weighted by rarity',
    run: bm25Retriever,
    needs: { keyPoints: false, embedder: false, graph: [] },
    explain: null,
  },
  dense: {
    label: 'Dense',
    description: 'vector similarity of question and passages',
    run: denseRetriever,
    needs: { keyPoints: false, embedder: true, graph: [] },
    explain: null,
  },
  ppr: {
    label: 'PPR (HippoRAG-style walk)',
    description: 'personalized PageRank over the entity–passage–note graph, seeded by BM25 and dense',
    run: pprRetriever,
    needs: { keyPoints: false, embedder: true, graph: ['entity-graph'] },
    explain: (x) => formatPprExplanation(x as PprExplanation),
  },
  hig: {
    label: 'HIG (KG-Retriever)',
    description: 'KG-Retriever\'s walk over the hierarchical index graph',
    run: higRetriever,
    needs: { keyPoints: false, embedder: true, graph: ['hig'] },
    explain: (x) => formatHigExplanation(x as HigExplanation),
  },
  pgr: {
    label: 'PGR (PG-RAG)',
    description: 'PG-RAG\'s walk over the pseudo-graph of fact paths, seeded by the question\'s key points',
    run: pgrRetriever,
    needs: { keyPoints: true, embedder: true, graph: ['pseudo-graph'] },
    explain: (x) => formatPgrExplanation(x as PgrExplanation),
  },
} satisfies Record<RetrievalMethod, RetrievalMethodEntry>;

/** The methods in the registry's order (the picker's order: the default first). */
export const METHOD_NAMES = Object.keys(RETRIEVAL_METHODS) as RetrievalMethod[];

export function methodEntry(method: RetrievalMethod): RetrievalMethodEntry {
  const entry: RetrievalMethodEntry | undefined = (RETRIEVAL_METHODS as Record<string, RetrievalMethodEntry>)[method];
  if (!entry) throw new Error(`Unknown retrieval method '${method}'. Available: ${METHOD_NAMES.join(', ')}`);
  return entry;
}
