import type { Db } from '../store/db.js';
import { EMBEDDED_TEXT_MAX_CHARS, factPathParts, loadEmbeddingsOf } from '../store/embeddings.js';
import { normalize } from './embedder.js';

/**
 * A mind-map node's path (ancestors' texts › its own text) is its parent's path and its own text: with
 * a model embedder its vector is composed from those two vectors instead of running the model over the
 * whole path again. A fact's own vector the index has anyway; a heading's or list item's own text is a
 * few words, far shorter than its path. Fact paths were the largest share of a model's tokens (38% on
 * SilverBullet, 62% on news); composed, a leaf's path vector keeps a mean cosine of 0.92 to the embedded
 * one with MiniLM (weights in docs/tuning.md). The parent's weight: 0.7 came out best of 0–1.5.
 */
export const PARENT_WEIGHT = 0.7;

/** What a row's vector is made from: its path embedded whole, its own text (as embedded: cut) embedded and composed, or its fact's vector composed. */
export type PathSource = { embed: 'path' } | { embed: 'text'; text: string } | { embed: null };

/**
 * Plans a batch of mind-map rows (in id order, so a parent comes before its children). A row under a
 * parent whose vector exists (written earlier, or made in this batch) is composed: from its fact's
 * vector when it states a fact that has one, else from its own text's, which the caller embeds. A root,
 * or a row whose parent has no vector, is embedded by its path. `compose` fills `made` (row id → vector,
 * holding the rows embedded by path) with the rest, given the vectors of the own texts embedded.
 */
export function planFactPaths(
  db: Db,
  model: string,
  ids: number[],
): { sources: PathSource[]; compose: (made: Map<number, Float32Array>, ownText: ReadonlyMap<string, Float32Array>) => void } {
  const parts = factPathParts(db, ids);
  const inBatch = new Set(ids);
  const facts = loadEmbeddingsOf(db, 'fci', model, [...new Set([...parts.values()].flatMap((p) => (p.fci === null ? [] : [p.fci])))]);
  const outside = [...new Set([...parts.values()].flatMap((p) => (p.parent !== null && !inBatch.has(p.parent) ? [p.parent] : [])))];
  const parents = loadEmbeddingsOf(db, 'mm', model, outside);
  // A parent embedded by path or composed in this batch has a vector by the time its children are composed.
  const sources = ids.map((id): PathSource => {
    const p = parts.get(id);
    if (!p || p.parent === null || !(inBatch.has(p.parent) || parents.has(p.parent))) return { embed: 'path' };
    return p.fci !== null && facts.has(p.fci) ? { embed: null } : { embed: 'text', text: p.text.slice(0, EMBEDDED_TEXT_MAX_CHARS) };
  });
  return {
    sources,
    compose(made, ownText) {
      ids.forEach((id, j) => {
        const source = sources[j]!;
        if (source.embed === 'path' || made.has(id)) return;
        const p = parts.get(id)!;
        const parent = made.get(p.parent!) ?? parents.get(p.parent!)!;
        const own = source.embed === 'text' ? ownText.get(source.text)! : facts.get(p.fci!)!;
        const v = new Float32Array(own.length);
        for (let k = 0; k < v.length; k++) v[k] = PARENT_WEIGHT * parent[k]! + own[k]!;
        made.set(id, normalize(v));
      });
    },
  };
}
