import type { Db } from '../store/db.js';
import { loadEmbeddingsOf, notePassages } from '../store/embeddings.js';
import { normalize, type Embedder } from './embedder.js';
import { estimatedTokens } from './estimated-tokens.js';

/**
 * A note is embedded by its beginning: its title and prose, cut where the model cuts (256 tokens for
 * MiniLM). A note of several passages holds that text again, passage by passage, so with a model its
 * vector is composed from its passages' vectors, each weighted by its tokens within the cut: a mean
 * cosine of 0.92–0.93 to the embedded vector with MiniLM on SilverBullet and Foam (0.85 for the plain
 * mean, 0.78–0.81 for the first passage's), where embedding the notes cost 0.29× the passages' tokens
 * again. A note of one passage has its passage's text and vector already (embed-missing.ts shares them).
 */
export function composeNoteVectors(db: Db, embedder: Embedder, docIds: number[]): Map<number, Float32Array> {
  const passages = notePassages(db, docIds);
  const several = [...passages].filter(([, list]) => list.length > 1);
  const vectors = loadEmbeddingsOf(
    db,
    'chunk',
    embedder.id,
    several.flatMap(([, list]) => list.map(([id]) => id)),
  );
  const cut = embedder.maxTokens ?? 512;
  const out = new Map<number, Float32Array>();
  for (const [docId, list] of several) {
    if (!list.every(([id]) => vectors.has(id))) continue;
    const tokens = embedder.countTokens?.(list.map(([, text]) => text)) ?? list.map(([, text]) => estimatedTokens(text, cut));
    const v = new Float32Array(embedder.dim);
    let before = 0;
    list.forEach(([id], i) => {
      const weight = Math.max(0, Math.min(tokens[i]!, cut - before));
      before += tokens[i]!;
      if (weight === 0) return;
      const p = vectors.get(id)!;
      for (let k = 0; k < v.length; k++) v[k]! += weight * p[k]!;
    });
    out.set(docId, normalize(v));
  }
  return out;
}
