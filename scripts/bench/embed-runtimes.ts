// One model folder run two ways on the same texts — transformers.js's feature-extraction model (what Loci
// uses) and onnxruntime-node's session called directly with transformers.js's tokenizer and our own mean
// pooling — each with 1 and 2 intra-op threads, interleaved over two rounds: CPU time (every thread of the
// process), wall time, and the lowest cosine between the two runtimes' vectors (docs/tuning.md, issue 42).
//   npx tsx scripts/bench/embed-runtimes.ts --model <cache>/minilm-l6-v2-int8 <notes folder> [--texts 300]
import { readFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { listNotes } from '../../main/bench/docs-qa.js';
import { extractFast } from '../../main/engine/extract/fast/index.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { chunkTexts, mindMapTexts } from '../../main/engine/index-worker/owner-texts.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { model: { type: 'string' }, texts: { type: 'string', default: '300' } } });
if (!values.model || positionals.length !== 1) {
  console.error('usage: npx tsx scripts/bench/embed-runtimes.ts --model <model folder> <notes folder> [--texts n]');
  process.exit(2);
}
const modelDir = values.model;
const folder = positionals[0]!;
// Half passages, half fact paths, spread over the folder.
const passages: string[] = [];
const paths: string[] = [];
for (const relPath of listNotes(folder)) {
  const note = parseNote(relPath, readFileSync(join(folder, relPath), 'utf8'));
  passages.push(...chunkTexts(note));
  paths.push(...mindMapTexts(extractFast(note).mindMap));
}
const spread = (a: string[], n: number) => a.filter((_, i) => i % Math.max(1, Math.floor(a.length / n)) === 0).slice(0, n);
const half = Number(values.texts) / 2;
const texts = [...spread(passages, half), ...spread(paths, half)];

const tf = await import('@huggingface/transformers');
const ort = await import('onnxruntime-node');
tf.env.allowRemoteModels = false;
tf.env.localModelPath = dirname(modelDir) + sep;
const tokenizer = await tf.AutoTokenizer.from_pretrained(basename(modelDir));
const onnxFile = join(modelDir, 'onnx', 'model_quantized.onnx');
const MAX_TOKENS = 256;

/** Token ids cut as transformers-embedder.ts cuts them, padded to the batch's longest, with the mask. */
function encode(batch: string[]) {
  const rows = batch.map((t) => {
    const ids = tokenizer.encode(t);
    return ids.length <= MAX_TOKENS ? ids : [...ids.slice(0, MAX_TOKENS - 1), ids[ids.length - 1]!];
  });
  const width = Math.max(...rows.map((r) => r.length));
  const ids = new BigInt64Array(rows.length * width);
  const mask = new BigInt64Array(rows.length * width);
  rows.forEach((r, i) => r.forEach((id, j) => ((ids[i * width + j] = BigInt(id)), (mask[i * width + j] = 1n))));
  return { ids, mask, n: rows.length, width };
}

type Run = (batch: string[]) => Promise<Float32Array[]>;

async function viaTransformers(threads: number): Promise<Run> {
  const extractor = await tf.pipeline('feature-extraction', basename(modelDir), { dtype: 'q8', device: 'cpu', session_options: { enableCpuMemArena: false, intraOpNumThreads: threads } });
  return async (batch) => {
    const e = encode(batch);
    const mask = new tf.Tensor('int64', e.mask, [e.n, e.width]);
    const out = (await extractor.model({ input_ids: new tf.Tensor('int64', e.ids, [e.n, e.width]), attention_mask: mask })) as { last_hidden_state: InstanceType<typeof tf.Tensor> };
    const pooled = tf.mean_pooling(out.last_hidden_state, mask).normalize(2, -1);
    const dim = pooled.dims[1]!;
    const data = pooled.data as Float32Array;
    return Array.from({ length: e.n }, (_, r) => data.slice(r * dim, (r + 1) * dim));
  };
}

async function viaOnnxRuntime(threads: number): Promise<Run> {
  const session = await ort.InferenceSession.create(onnxFile, { enableCpuMemArena: false, intraOpNumThreads: threads });
  return async (batch) => {
    const e = encode(batch);
    const feeds: Record<string, InstanceType<typeof ort.Tensor>> = {
      input_ids: new ort.Tensor('int64', e.ids, [e.n, e.width]),
      attention_mask: new ort.Tensor('int64', e.mask, [e.n, e.width]),
    };
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(e.n * e.width), [e.n, e.width]);
    const states = (await session.run(feeds)).last_hidden_state!;
    const dim = states.dims[2]!;
    const data = states.data as Float32Array;
    return Array.from({ length: e.n }, (_, r) => {
      const v = new Float32Array(dim);
      let tokens = 0;
      for (let j = 0; j < e.width; j++) {
        if (e.mask[r * e.width + j] === 0n) continue;
        tokens++;
        for (let k = 0; k < dim; k++) v[k]! += data[(r * e.width + j) * dim + k]!;
      }
      const norm = Math.hypot(...v.map((x) => x / tokens));
      return v.map((x) => x / tokens / norm);
    });
  };
}

/** Length-ordered batches of 16, as the embedder runs them. */
async function timed(name: string, run: Run): Promise<Float32Array[]> {
  await run(texts.slice(0, 4));
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const out: Float32Array[] = new Array(texts.length);
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < order.length; i += 16) {
    const ids = order.slice(i, i + 16);
    (await run(ids.map((k) => texts[k]!))).forEach((v, j) => (out[ids[j]!] = v));
  }
  const used = process.cpuUsage(cpu);
  console.log(`${name.padEnd(24)} wall ${((performance.now() - t) / 1000).toFixed(2)} s, CPU ${((used.user + used.system) / 1e6).toFixed(2)} s`);
  return out;
}

console.log(`${texts.length} texts (${spread(passages, half).length} passages, ${spread(paths, half).length} fact paths) from ${folder}`);
const vectors: Record<string, Float32Array[]> = {};
for (let round = 1; round <= 2; round++) {
  for (const threads of [2, 1]) {
    vectors[`transformers.js ${threads}`] = await timed(`transformers.js, ${threads} thr`, await viaTransformers(threads));
    vectors[`onnxruntime ${threads}`] = await timed(`onnxruntime-node, ${threads} thr`, await viaOnnxRuntime(threads));
  }
}
const a = vectors['transformers.js 2']!;
const b = vectors['onnxruntime 2']!;
const lowest = Math.min(...a.map((v, i) => v.reduce((s, x, k) => s + x * b[i]![k]!, 0)));
console.log(`lowest cosine, transformers.js vs onnxruntime-node: ${lowest.toFixed(6)}`);
