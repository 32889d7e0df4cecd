import type { Embedder } from './embedder.js';
import { createStaticEmbedder } from './static-embedder.js';

const TRANSFORMERS_PREFIX = 'transformers:';

/**
 * Picks an embedder from a spec string (CLI flag, settings):
 *   undefined | 'glove'        → the built-in GloVe SIF embedder
 *   'transformers:<model dir>' → a local transformers.js feature-extraction model
 */
export async function createEmbedder(spec?: string): Promise<Embedder> {
  const s = spec?.trim();
  if (!s || s === 'glove') return createStaticEmbedder();
  if (s.startsWith(TRANSFORMERS_PREFIX)) {
    const modelDir = s.slice(TRANSFORMERS_PREFIX.length);
    if (!modelDir) throw new Error(`embedder spec "${spec}" names no model folder: use transformers:<dir>`);
    // Loaded on demand: transformers.js and onnxruntime cost a noticeable start-up for the GloVe default.
    const { createTransformersEmbedder } = await import('./transformers-embedder.js');
    return createTransformersEmbedder({ modelDir });
  }
  throw new Error(`unknown embedder "${spec}": use "glove" or "transformers:<model dir>"`);
}
