import type { Db } from '../../main/engine/store/db.js';

/**
 * Mind-map rows a model embedder composes rather than embeds by path: every node under a parent, with the
 * parent and what else its vector is made of — the fact it states (its text the fact's), or else its own
 * text, which the model embeds alone. Read here by its own query, so a test does not take the engine's
 * word for which rows those are.
 */
export function composablePaths(db: Db): Map<number, { parent: number; fci: number | null; text: string; path: string }> {
  const rows = db
    .prepare(
      `SELECT n.id, n.parent_id parent, CASE WHEN f.text = n.text THEN f.id END fci, n.text, n.path_text path
       FROM mm_nodes n LEFT JOIN fcis f ON f.id = n.fci_id WHERE n.parent_id IS NOT NULL`,
    )
    .all() as { id: number; parent: number; fci: number | null; text: string; path: string }[];
  return new Map(rows.map((r) => [r.id, r]));
}

/** The composed vector: 0.7 of the parent path's and all of the fact's (or the node's own text's), normalised. */
export function composedPathVector(parent: Float32Array, own: Float32Array): Float32Array {
  const sum = parent.map((x, k) => 0.7 * x + own[k]!);
  const norm = Math.hypot(...sum);
  return sum.map((x) => x / norm);
}

/**
 * Texts only the mind maps hold — headings, whose paths are composed from them, and roots' paths: what a
 * model embedder is sent for PG-RAG's fact paths, and for no other kind of row.
 */
export function mapOnlyTexts(db: Db): Set<string> {
  const texts = db
    .prepare(
      `SELECT text FROM mm_nodes WHERE fci_id IS NULL UNION SELECT path_text FROM mm_nodes WHERE parent_id IS NULL
       EXCEPT SELECT name FROM entities EXCEPT SELECT text FROM fcis EXCEPT SELECT d.title || ' ' || c.text FROM chunks c JOIN documents d ON d.id = c.document_id`,
    )
    .pluck()
    .all() as string[];
  return new Set(texts);
}
