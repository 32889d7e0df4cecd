import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export interface TinyBertOptions {
  /** Must match the tokenizer's vocabulary, or Gather reads out of range. */
  vocabSize: number;
  dim: number;
  seed?: number;
}

/**
 * A BERT-shaped ONNX model small enough to build in a test: the same inputs (input_ids, attention_mask,
 * token_type_ids, int64 [batch, seq]) and output (last_hidden_state, float32 [batch, seq, dim]) as a real
 * encoder, computed as tanh((word_emb[ids] + type_emb[types]) · W) × mask. No attention, so each token's
 * state is independent of its neighbours and of padding: batching cannot change a text's vector.
 */
export interface TinyBert {
  onnx: Uint8Array;
  /** The weights inside the model, so a test can compute the expected output independently. */
  weights: { wordEmb: Float32Array; typeEmb: Float32Array; proj: Float32Array };
}

export function buildTinyBertOnnx({ vocabSize, dim, seed = 7 }: TinyBertOptions): TinyBert {
  const rand = mulberry32(seed);
  const uniform = (n: number, scale: number) => Float32Array.from({ length: n }, () => (rand() * 2 - 1) * scale);
  const T = onnx.TensorProto.DataType;

  const floatTensor = (name: string, dims: number[], values: Float32Array) =>
    onnx.TensorProto.create({ name, dims, dataType: T.FLOAT, rawData: new Uint8Array(values.buffer) });
  const int64Tensor = (name: string, values: number[]) =>
    onnx.TensorProto.create({
      name,
      dims: [values.length],
      dataType: T.INT64,
      rawData: new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer),
    });
  const valueInfo = (name: string, elemType: number, dims: (string | number)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: onnx.TypeProto.create({
        tensorType: onnx.TypeProto.Tensor.create({
          elemType,
          shape: onnx.TensorShapeProto.create({
            dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
          }),
        }),
      }),
    });
  const node = (opType: string, input: string[], output: string[], attribute: onnxProto.onnx.IAttributeProto[] = []) =>
    onnx.NodeProto.create({ opType, input, output, name: output[0], attribute });

  const wordEmb = uniform(vocabSize * dim, 1);
  const typeEmb = uniform(2 * dim, 0.1);
  const proj = uniform(dim * dim, Math.sqrt(3 / dim));
  const graph = onnx.GraphProto.create({
    name: 'tiny-bert',
    input: [
      valueInfo('input_ids', T.INT64, ['batch', 'seq']),
      valueInfo('attention_mask', T.INT64, ['batch', 'seq']),
      valueInfo('token_type_ids', T.INT64, ['batch', 'seq']),
    ],
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch', 'seq', dim])],
    initializer: [
      floatTensor('word_emb', [vocabSize, dim], wordEmb),
      floatTensor('type_emb', [2, dim], typeEmb),
      floatTensor('proj', [dim, dim], proj),
      int64Tensor('last_axis', [-1]),
    ],
    node: [
      node('Gather', ['word_emb', 'input_ids'], ['words']),
      node('Gather', ['type_emb', 'token_type_ids'], ['types']),
      node('Add', ['words', 'types'], ['embedded']),
      node('MatMul', ['embedded', 'proj'], ['projected']),
      node('Tanh', ['projected'], ['hidden']),
      node('Cast', ['attention_mask'], ['mask_f'], [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }]),
      node('Unsqueeze', ['mask_f', 'last_axis'], ['mask_3d']),
      node('Mul', ['hidden', 'mask_3d'], ['last_hidden_state']),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'loci-test',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  });
  return { onnx: onnx.ModelProto.encode(model).finish(), weights: { wordEmb, typeEmb, proj } };
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
