import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { FeatureExtractionPipeline, Tensor } from '@huggingface/transformers';
import { normalize, type Embedder, type SpanRequest, type SpanVectors } from './embedder.js';
import { embedInLengthOrder, inLengthOrder } from './length-batches.js';
import { spanTokenRanges, type CharSpan } from './token-spans.js';
import { readSentenceTransformersConfig, type Pooling } from './sentence-transformers-folder.js';

export interface TransformersEmbedderOptions {
  /** A local feature-extraction model folder: config.json, tokenizer files, onnx/model(.quantized).onnx. */
  modelDir: string;
  id?: string;
  /** Overrides the folder's pooling (sentence-transformers' 1_Pooling/config.json; mean where it says none). */
  pooling?: Pooling;
  /** Use onnx/model_quantized.onnx. Default: only when onnx/model.onnx is absent and the quantised one exists. */
  quantized?: boolean;
  batchSize?: number;
}

/** transformers.js reads its configuration from one global `env`: creations are serialised around it. */
let loadQueue: Promise<unknown> = Promise.resolve();

/** An embedder over any local transformers.js feature-extraction model; never touches the network. */
export async function createTransformersEmbedder(opts: TransformersEmbedderOptions): Promise<Embedder> {
  const dir = resolve(opts.modelDir);
  for (const required of ['config.json', 'tokenizer.json']) {
    if (!existsSync(join(dir, required))) throw new Error(`${dir} is not a transformers.js model folder: ${required} is missing`);
  }
  const hasFull = existsSync(join(dir, 'onnx', 'model.onnx'));
  const hasQuantized = existsSync(join(dir, 'onnx', 'model_quantized.onnx'));
  const quantized = opts.quantized ?? (!hasFull && hasQuantized);
  const onnxFile = join(dir, 'onnx', quantized ? 'model_quantized.onnx' : 'model.onnx');
  if (!existsSync(onnxFile)) throw new Error(`${dir} has no ${join('onnx', basename(onnxFile))}`);

  // The folder says how its authors embed (sentence-transformers-folder.ts): the trained length, the
  // pooling, the prompts before queries and passages. Read first: a bad file is refused before the model loads.
  const folder = readSentenceTransformersConfig(dir);

  // Loaded here, not with the module: transformers.js and onnxruntime take ~0.1 s and ~50 MB to load, and
  // a bundle (the CLI, the engine's process) would otherwise load them on every start, model or not.
  const { env, mean_pooling, pipeline, Tensor } = await import('@huggingface/transformers');
  const load = loadQueue.then(async () => {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = dirname(dir) + sep;
    return (await pipeline('feature-extraction', basename(dir), {
      dtype: quantized ? 'q8' : 'fp32',
      device: 'cpu',
      // onnxruntime's CPU arena keeps the largest buffers every batch shape ever needed: indexing
      // SilverBullet with MiniLM held 5.2 GB. Without it, 0.5–0.8 GB at a similar CPU cost once batches
      // are length-ordered (below).
      session_options: { enableCpuMemArena: false },
    })) as FeatureExtractionPipeline;
  });
  loadQueue = load.catch(() => undefined);
  const extractor = await load;

  const pooling = opts.pooling ?? folder.pooling ?? 'mean';
  // Texts are cut where the model was trained to cut them, so a long passage gets the vector the model's
  // authors meant, at the cost of its first 256 tokens instead of 512 (MiniLM on Chinese news, a token
  // per character: most chunks are longer than 512 characters).
  const trained = folder.maxSeqLength;
  const maxTokens = Math.min(trained ?? Infinity, extractor.tokenizer.model_max_length);
  const cutShorter = trained !== null && trained < extractor.tokenizer.model_max_length;
  const { query: queryPrompt = '', passage: passagePrompt = '' } = folder.prompts;
  // A quarter of SilverBullet's chunks with MiniLM int8, CPU seconds / peak RSS: 32 as they come, with the
  // arena 69 s / 2.4 GB; length-ordered without the arena, 32 per batch 44 s / 0.64 GB, 16 per batch
  // 39 s / 0.77 GB (nice 19 on a loaded 2-core machine: CPU time, not wall time, is the comparable figure).
  const batchSize = opts.batchSize ?? 16;
  const tokenizer = extractor.tokenizer;
  const closing = new Set(tokenizer.all_special_ids);
  /**
   * A text's token ids cut to maxTokens as sentence-transformers cuts them: the text's tokens end early
   * and the closing special token ([SEP], </s>) stays. (transformers.js's own truncation drops it with
   * the text's end.)
   */
  const cut = (ids: number[]) => {
    if (ids.length <= maxTokens) return ids;
    const last = ids[ids.length - 1]!;
    return closing.has(last) ? [...ids.slice(0, maxTokens - 1), last] : ids.slice(0, maxTokens);
  };
  /** The batch's token ids, each cut, padded to the batch's longest, with its attention mask. */
  const encode = (batch: string[]) => {
    const full = batch.map((text) => tokenizer.encode(text));
    const rows = full.map(cut);
    const width = Math.max(...rows.map((r) => r.length));
    const ids = new BigInt64Array(rows.length * width).fill(BigInt(tokenizer.pad_token_id ?? 0));
    const mask = new BigInt64Array(rows.length * width);
    rows.forEach((row, r) =>
      row.forEach((id, j) => {
        ids[r * width + j] = BigInt(id);
        mask[r * width + j] = 1n;
      }),
    );
    return { full, rows, width, input_ids: new Tensor('int64', ids, [rows.length, width]), attention_mask: new Tensor('int64', mask, [rows.length, width]) };
  };
  const specialsAt = (ids: number[], from: number, step: 1 | -1) => {
    let n = 0;
    for (let i = from; i >= 0 && i < ids.length && closing.has(ids[i]!); i += step) n++;
    return n;
  };
  /** The token range of each span in the model's input for `text` (`ids`: its tokens, uncut), or null: spanTokenRanges. */
  const rangesOf = (text: string, ids: number[], spans: readonly CharSpan[]) => {
    const leading = specialsAt(ids, 0, 1);
    const textTokens = ids.length - leading - specialsAt(ids, ids.length - 1, -1);
    const kept = cut(ids);
    const keptTokens = kept.length - leading - specialsAt(kept, kept.length - 1, -1);
    return spanTokenRanges(text, spans, (piece) => tokenizer.encode(piece, { add_special_tokens: false }).length, textTokens, leading, keptTokens);
  };
  /** Each text's vector and, given spans, each span's mean of the same pass's token states (normalised). */
  const run = async (batch: string[], spans?: (readonly CharSpan[])[]): Promise<SpanVectors[]> => {
    // What the feature-extraction pipeline does after tokenizing (the model adds token_type_ids of zeros).
    const { full, width, ...inputs } = encode(batch);
    const outputs = (await extractor.model(inputs)) as Record<string, Tensor | undefined>;
    const states = outputs.last_hidden_state ?? outputs.token_embeddings;
    if (!states) throw new Error(`${dir}: the model has no last_hidden_state output to pool`);
    const pooled = (pooling === 'mean' ? mean_pooling(states, inputs.attention_mask) : states.slice(null, 0)).normalize(2, -1);
    const [rows, dim] = pooled.dims as [number, number];
    const data = pooled.data as Float32Array;
    const tokenStates = states.data as Float32Array;
    const out: SpanVectors[] = [];
    for (let r = 0; r < rows; r++) {
      const vector = data.slice(r * dim, (r + 1) * dim);
      const asked = spans?.[r] ?? [];
      if (asked.length === 0) {
        out.push({ vector, spans: [] });
        continue;
      }
      const ranges = rangesOf(batch[r]!, full[r]!, asked);
      out.push({ vector, spans: ranges.map((range) => range && poolTokens(tokenStates, (r * width + range[0]) * dim, range[1] - range[0], dim)) });
    }
    for (const t of [pooled, states, inputs.input_ids, inputs.attention_mask]) t.dispose();
    return out;
  };
  const vectorsOf = async (batch: string[]) => (await run(batch)).map((r) => r.vector);
  // config.json's hidden_size describes the architecture, not necessarily this export: ask the model.
  const [probe] = await vectorsOf(['dimension probe']);

  const prefixed = (prompt: string, texts: string[]) => (prompt ? texts.map((t) => prompt + t) : texts);
  /** Span requests as the model reads them: after the passage prompt, their spans shifted past it. */
  const prompted = (items: readonly SpanRequest[]) =>
    items.map((it) => ({ text: passagePrompt + it.text, spans: it.spans.map(([a, b]) => [a + passagePrompt.length, b + passagePrompt.length] as const) }));
  // Vectors differ once texts are cut shorter, pooled by [CLS] or prompted, so an index embedded
  // otherwise by the same folder keeps them apart (and embeds again).
  const variant = `${cutShorter ? `@${trained}` : ''}${pooling === 'cls' ? '+cls' : ''}${queryPrompt || passagePrompt ? '+prompts' : ''}`;
  return {
    id: opts.id ?? `transformers:${basename(dir)}${variant}`,
    dim: probe!.length,
    maxTokens,
    embed: (texts) => embedInLengthOrder(prefixed(passagePrompt, texts), batchSize, vectorsOf),
    // Pooled spans are mean-pooled: a [CLS]-pooled model's vector of a span would not be its own.
    ...(pooling === 'mean'
      ? {
          embedWithSpans: (items: readonly SpanRequest[]) =>
            inLengthOrder(prompted(items), (it) => it.text.length, batchSize, (batch) =>
              run(
                batch.map((it) => it.text),
                batch.map((it) => it.spans),
              ),
            ),
          poolableSpans: (items: readonly SpanRequest[]) =>
            prompted(items).map((it) => rangesOf(it.text, tokenizer.encode(it.text), it.spans).map((range) => range !== null)),
        }
      : {}),
    countTokens: (texts) => prefixed(passagePrompt, texts).map((t) => Math.min(maxTokens, tokenizer.encode(t).length)),
    ...(queryPrompt || passagePrompt ? { embedQueries: (texts: string[]) => embedInLengthOrder(prefixed(queryPrompt, texts), batchSize, vectorsOf) } : {}),
    async dispose() {
      await extractor.dispose();
    },
  };
}

/** The normalised mean of `count` token states of `dim` values from `offset`. */
function poolTokens(states: Float32Array, offset: number, count: number, dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (let t = 0; t < count; t++) for (let k = 0; k < dim; k++) v[k]! += states[offset + t * dim + k]!;
  return normalize(v);
}
