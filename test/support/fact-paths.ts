import type { Db } from '../../main/engine/store/db.js';

/**
 * Fact-path rows a model embedder composes rather than embeds: a node that is a fact (its text the fact's)
 * under a parent node, with the two rows its vector is made of. Read here by its own query, so a test
 * does not take the engine's word for which rows those are.
 */
export function composableFactPaths(db: Db): Map<number, { parent: number; fci: number; path: string }> {
  const rows = db
    .prepare('SELECT n.id, n.parent_id parent, f.id fci, n.path_text path FROM mm_nodes n JOIN fcis f ON f.id = n.fci_id WHERE n.parent_id IS NOT NULL AND n.text = f.text')
    .all() as { id: number; parent: number; fci: number; path: string }[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** The composed vector: 0.7 of the parent path's and all of the fact's, normalised. */
export function composedPathVector(parent: Float32Array, fact: Float32Array): Float32Array {
  const sum = parent.map((x, k) => 0.7 * x + fact[k]!);
  const norm = Math.hypot(...sum);
  return sum.map((x) => x / norm);
}
