import type { Db } from '../store/db.js';
import { factPathParts, loadEmbeddingsOf } from '../store/embeddings.js';
import { normalize } from './embedder.js';

/**
 * A fact's path (ancestors' texts › the fact) is its parent's path and the fact itself: with a model
 * embedder its vector is composed from those two vectors, which the index has anyway, instead of running
 * the model over the whole path again. Fact paths were the largest share of a model's tokens (38% on
 * SilverBullet, 62% on news); composed, a leaf's path vector keeps a mean cosine of 0.92 to the embedded
 * one with MiniLM (weights in docs/tuning.md). The parent's weight: 0.7 came out best of 0–1.5.
 */
export const PARENT_WEIGHT = 0.7;

/**
 * Splits a batch of fact-path rows (in id order, so a parent comes before its children) into those to
 * embed and a `compose` step that gives the others their vectors once the embedded ones are known. A row
 * is composed when it is a fact under a parent whose vector exists (written earlier, or made in this
 * batch) and the fact's own vector exists; any other row is embedded. `compose` fills `made` (row id →
 * vector, holding the rows embedded) with the rest.
 */
export function planFactPaths(db: Db, model: string, ids: number[]): { embed: boolean[]; compose: (made: Map<number, Float32Array>) => void } {
  const parts = factPathParts(db, ids);
  const inBatch = new Set(ids);
  const facts = loadEmbeddingsOf(db, 'fci', model, [...new Set([...parts.values()].map((p) => p.fci))]);
  const outside = [...new Set([...parts.values()].map((p) => p.parent).filter((p) => !inBatch.has(p)))];
  const parents = loadEmbeddingsOf(db, 'mm', model, outside);
  const composable = (id: number) => {
    const p = parts.get(id);
    return !!p && facts.has(p.fci) && (inBatch.has(p.parent) || parents.has(p.parent));
  };
  const embed = ids.map((id) => !composable(id));
  return {
    embed,
    compose(made) {
      for (const id of ids) {
        if (made.has(id)) continue;
        const p = parts.get(id)!;
        const parent = made.get(p.parent) ?? parents.get(p.parent)!;
        const fact = facts.get(p.fci)!;
        const v = new Float32Array(fact.length);
        for (let k = 0; k < v.length; k++) v[k] = PARENT_WEIGHT * parent[k]! + fact[k]!;
        made.set(id, normalize(v));
      }
    },
  };
}
