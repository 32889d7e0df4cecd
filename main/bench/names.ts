// What the bench commands list in their options and check their arguments against: plain constants, so
// the CLI can register the commands without loading any bench code (that is loaded when one runs).
import type { RetrievalMethod } from '../engine/types.js';
import { retrievalMethod } from '../contract/shapes/domain.js';

export type DatasetFormat = 'hotpotqa' | 'musique' | '2wiki' | 'hipporag' | 'crud' | 'docsqa';
export const DATASET_FORMATS: DatasetFormat[] = ['hotpotqa', 'musique', '2wiki', 'hipporag', 'crud', 'docsqa'];

/** The JavaScript search libraries benched beside Loci (peers.ts). */
export type PeerName = 'minisearch' | 'orama';
export const PEER_NAMES: PeerName[] = ['minisearch', 'orama'];

/** Every method of the retrieval registry (engine/retrieve/registry.ts covers exactly this enum), without loading it. */
export const LOCI_METHODS: RetrievalMethod[] = [...retrievalMethod.options];
export const ALL_BENCH_METHODS: string[] = [...LOCI_METHODS, ...PEER_NAMES];

export const SUITES = ['dev'] as const;
export type SuiteName = (typeof SUITES)[number];

export function checkMethods(methods: string[]): void {
  const unknown = methods.filter((m) => !ALL_BENCH_METHODS.includes(m));
  if (unknown.length) throw new Error(`Unknown method(s): ${unknown.join(', ')}. Available: ${ALL_BENCH_METHODS.join(', ')}`);
}
