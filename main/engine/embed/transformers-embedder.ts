import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import type { Embedder } from './embedder.js';
import { embedInLengthOrder } from './length-batches.js';

export interface TransformersEmbedderOptions {
  /** A local feature-extraction model folder: config.json, tokenizer files, onnx/model(.quantized).onnx. */
  modelDir: string;
  id?: string;
  pooling?: 'mean' | 'cls';
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

  const pooling = opts.pooling ?? 'mean';
  // A quarter of SilverBullet's chunks with MiniLM int8, CPU seconds / peak RSS: 32 as they come, with the
  // arena 69 s / 2.4 GB; length-ordered without the arena, 32 per batch 44 s / 0.64 GB, 16 per batch
  // 39 s / 0.77 GB (nice 19 on a loaded 2-core machine: CPU time, not wall time, is the comparable figure).
  const batchSize = opts.batchSize ?? 16;
  const run = async (batch: string[]): Promise<Float32Array[]> => {
    const output = await extractor(batch, { pooling, normalize: true });
    const [rows, dim] = output.dims as [number, number];
    const data = output.data as Float32Array;
    const vectors: Float32Array[] = [];
    for (let r = 0; r < rows; r++) vectors.push(data.slice(r * dim, (r + 1) * dim));
    output.dispose?.();
    return vectors;
  };
  // config.json's hidden_size describes the architecture, not necessarily this export: ask the model.
  const [probe] = await run(['dimension probe']);

  return {
    id: opts.id ?? `transformers:${basename(dir)}`,
    dim: probe!.length,
    embed: (texts) => embedInLengthOrder(texts, batchSize, run),
    async dispose() {
      await extractor.dispose();
    },
  };
}
