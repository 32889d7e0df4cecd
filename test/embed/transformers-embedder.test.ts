import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dot, poolsSpans, type Embedder } from '../../main/engine/embed/embedder.js';
import { embedPassagesWithFacts, PASSAGE_SHARE_REMOVED } from '../../main/engine/embed/passage-facts.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { createTransformersEmbedder } from '../../main/engine/embed/transformers-embedder.js';
import { buildTinyBertOnnx, type TinyBert } from './build-tiny-onnx.js';

const TOKENIZER = join(import.meta.dirname, '../../../shared/models/tokenizers/bge-small-zh-v1.5');
const DIM = 32;
const hasTokenizer = existsSync(join(TOKENIZER, 'tokenizer.json'));
if (!hasTokenizer) console.log(`skipping transformers embedder tests: no tokenizer at ${TOKENIZER}`);

const root = mkdtempSync(join(tmpdir(), 'loci-transformers-'));
const modelDir = join(root, 'tiny-bge');
let tiny: TinyBert;
let vocab: Map<string, number>;
let embedder: Embedder;

beforeAll(async () => {
  if (!hasTokenizer) return;
  // The real tokenizer files next to a model we build: the layout of any transformers.js model folder.
  mkdirSync(join(modelDir, 'onnx'), { recursive: true });
  for (const f of readdirSync(TOKENIZER)) copyFileSync(join(TOKENIZER, f), join(modelDir, f));
  const config = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as { vocab_size: number };
  tiny = buildTinyBertOnnx({ vocabSize: config.vocab_size, dim: DIM });
  writeFileSync(join(modelDir, 'onnx', 'model.onnx'), tiny.onnx);
  vocab = new Map(readFileSync(join(modelDir, 'vocab.txt'), 'utf8').split('\n').map((t, i) => [t.trim(), i]));
  embedder = await createTransformersEmbedder({ modelDir });
}, 120_000);

afterAll(async () => {
  await embedder?.dispose?.();
  rmSync(root, { recursive: true, force: true });
});

/**
 * What the model must output for a pure-CJK text, computed without transformers.js: BERT's Chinese
 * tokenizer makes every CJK character one token (looked up in vocab.txt), framed by [CLS] … [SEP].
 */
function expectedVector(text: string, pooling: 'mean' | 'cls'): Float32Array {
  const states = handStates(text);
  const pooled = pooling === 'cls' ? states[0]! : Array.from({ length: DIM }, (_, j) => states.reduce((s, h) => s + h[j]!, 0) / states.length);
  return unit(pooled);
}

/** The model's output states for a pure-CJK text, by hand: [CLS], one per character, [SEP]. */
function handStates(text: string): number[][] {
  const ids = [vocab.get('[CLS]')!, ...[...text].map((ch) => vocab.get(ch)!), vocab.get('[SEP]')!];
  expect(ids.every((id) => id !== undefined)).toBe(true);
  const { wordEmb, typeEmb, proj } = tiny.weights;
  return ids.map((id) => {
    const x = Array.from({ length: DIM }, (_, i) => wordEmb[id * DIM + i]! + typeEmb[i]!);
    return Array.from({ length: DIM }, (_, j) => Math.tanh(x.reduce((s, xi, i) => s + xi * proj[i * DIM + j]!, 0)));
  });
}

/** The normalised mean of the states of characters [from, to) of `text` (after [CLS]). */
function expectedSpan(text: string, from: number, to: number): Float32Array {
  const states = handStates(text).slice(1 + from, 1 + to);
  return unit(Array.from({ length: DIM }, (_, j) => states.reduce((s, h) => s + h[j]!, 0)));
}

function unit(v: number[]): Float32Array {
  const n = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / n);
}

/** Embeds `text` and checks the vector against the one computed by hand. */
async function expectEmbeds(e: Embedder, text: string, pooling: 'mean' | 'cls'): Promise<void> {
  const [v] = await e.embed([text]);
  const expected = expectedVector(text, pooling);
  expect(v).toHaveLength(DIM);
  for (let j = 0; j < DIM; j++) expect(v![j]!).toBeCloseTo(expected[j]!, 5);
}

/** Embeds `text` with `e` and with the plain folder's embedder, and checks the vectors are the same. */
async function expectPlainVector(e: Embedder, text: string): Promise<void> {
  const [[v], [w]] = [await e.embed([text]), await embedder.embed([text])];
  expect(Array.from(v!)).toEqual(Array.from(w!));
}

/** Runs `fn` with an embedder made from these options, and disposes of it after. */
async function withEmbedder(opts: Parameters<typeof createTransformersEmbedder>[0], fn: (e: Embedder) => Promise<void>): Promise<void> {
  const e = await createTransformersEmbedder(opts);
  try {
    await fn(e);
  } finally {
    await e.dispose?.();
  }
}

/** A copy of the tiny model folder (tokenizer, config, ONNX) under another name, to add files to. */
function copyOfModel(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  for (const f of readdirSync(modelDir)) if (f !== 'onnx') copyFileSync(join(modelDir, f), join(dir, f));
  copyFileSync(join(modelDir, 'onnx', 'model.onnx'), join(dir, 'onnx', 'model.onnx'));
  return dir;
}

describe.skipIf(!hasTokenizer)('transformers.js embedder over a local model folder', () => {
  it('reports the model’s real output size and a folder-derived id', () => {
    expect(embedder.dim).toBe(DIM); // config.json says 512: the embedder must ask the model
    expect(embedder.id).toBe('transformers:tiny-bge');
  });

  it('runs the ONNX model with mean pooling exactly as computed by hand', async () => {
    await expectEmbeds(embedder, '北京欢迎你', 'mean');
  });

  it('supports CLS pooling and a custom id', async () => {
    await withEmbedder({ modelDir, pooling: 'cls', id: 'tiny@cls' }, async (cls) => {
      expect(cls.id).toBe('tiny@cls');
      await expectEmbeds(cls, '机器学习', 'cls');
    });
  });

  it('gives unit vectors, identical for identical texts and different for different texts', async () => {
    const texts = ['北京欢迎你', 'hello world', '北京欢迎你', '今天天气很好，我们去公园散步吧。', ''];
    const vs = await embedder.embed(texts);
    expect(vs).toHaveLength(texts.length);
    for (const v of vs) {
      expect(v).toHaveLength(DIM);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
    }
    expect(Array.from(vs[2]!)).toEqual(Array.from(vs[0]!));
    expect(dot(vs[0]!, vs[1]!)).toBeLessThan(0.99);
    expect(dot(vs[0]!, vs[3]!)).toBeLessThan(0.99);
  });

  it('is deterministic across embedder instances', async () => {
    await withEmbedder({ modelDir }, async (again) => {
      const texts = ['北京欢迎你', 'Loci indexes notes.'];
      const [a, b] = [await embedder.embed(texts), await again.embed(texts)];
      for (let i = 0; i < texts.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
    });
  });

  it('gives the same vectors in a padded batch as one at a time, across batch boundaries', async () => {
    await withEmbedder({ modelDir, batchSize: 4 }, async (small) => {
      const texts = Array.from({ length: 11 }, (_, i) => `第${i}条笔记：${'很长的句子'.repeat(i)} note ${i}`);
      const batched = await small.embed(texts);
      expect(batched).toHaveLength(texts.length);
      for (let i = 0; i < texts.length; i++) {
        const [single] = await small.embed([texts[i]!]);
        for (let j = 0; j < DIM; j++) expect(batched[i]![j]).toBeCloseTo(single![j]!, 5);
      }
      expect(await small.embed([])).toEqual([]);
    });
  });

  it('pools each span of a text from the same pass’s token states (late chunking), the text’s vector unchanged', async () => {
    const texts = ['北京欢迎你机器学习', '今天天气很好'];
    const results = await embedder.embedWithSpans!([
      { text: texts[0]!, spans: [[0, 2], [5, 9]] },
      { text: texts[1]!, spans: [[2, 4]] },
    ]);
    const whole = await embedder.embed(texts);
    results.forEach((r, i) => expect(Array.from(r.vector)).toEqual(Array.from(whole[i]!)));
    const close = (v: Float32Array | null, expected: Float32Array) => {
      expect(v).not.toBeNull();
      for (let j = 0; j < DIM; j++) expect(v![j]!).toBeCloseTo(expected[j]!, 5);
    };
    close(results[0]!.spans[0]!, expectedSpan(texts[0]!, 0, 2));
    close(results[0]!.spans[1]!, expectedSpan(texts[0]!, 5, 9));
    close(results[1]!.spans[0]!, expectedSpan(texts[1]!, 2, 4));
  });

  it('is reachable through the registry spec transformers:<dir>', async () => {
    const viaRegistry = await createEmbedder(`transformers:${modelDir}`);
    try {
      expect(viaRegistry.id).toBe('transformers:tiny-bge');
      await expectPlainVector(viaRegistry, '北京欢迎你');
    } finally {
      await viaRegistry.dispose?.();
    }
  });

  it('refuses folders that are not models, without trying the network', async () => {
    await expect(createTransformersEmbedder({ modelDir: join(root, 'missing') })).rejects.toThrow(/config\.json is missing/);
    await expect(createTransformersEmbedder({ modelDir, quantized: true })).rejects.toThrow(/model_quantized\.onnx/);
  });
});

describe.skipIf(!hasTokenizer)('transformers.js embedder: the length the model was trained on', () => {
  let cutDir = '';

  beforeAll(() => {
    if (!hasTokenizer) return;
    cutDir = copyOfModel('tiny-cut');
    // As a sentence-transformers folder says it (all-MiniLM-L6-v2: 256): [CLS], six characters, [SEP].
    writeFileSync(join(cutDir, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: 8, do_lower_case: false }));
  });

  it('cuts a text at sentence_bert_config.json max_seq_length tokens, and says so in its id', async () => {
    await withEmbedder({ modelDir: cutDir }, async (cut) => {
      expect(cut.id).toBe('transformers:tiny-cut@8');
      const long = '今天天气很好我们去公园散步吧';
      const [v, short] = await cut.embed([long, '北京欢迎你']);
      const expected = expectedVector(long.slice(0, 6), 'mean'); // [SEP] stays, as sentence-transformers keeps it
      for (let j = 0; j < DIM; j++) expect(v![j]!).toBeCloseTo(expected[j]!, 5);
      // Shorter texts are untouched, and the folder without the file embeds the long text whole.
      const [whole, same] = await embedder.embed([long, '北京欢迎你']);
      expect(Array.from(short!)).toEqual(Array.from(same!));
      const full = expectedVector(long, 'mean');
      for (let j = 0; j < DIM; j++) expect(whole![j]!).toBeCloseTo(full[j]!, 5);
      expect(dot(v!, whole!)).toBeLessThan(0.999);
    });
  });

  it('gives no span vector past the cut: the model never read those tokens', async () => {
    await withEmbedder({ modelDir: cutDir }, async (cut) => {
      const long = '今天天气很好我们去公园散步吧';
      const [r] = await cut.embedWithSpans!([{ text: long, spans: [[2, 4], [4, 8], [9, 11]] }]);
      const expected = expectedSpan(long, 2, 4);
      for (let j = 0; j < DIM; j++) expect(r!.spans[0]![j]!).toBeCloseTo(expected[j]!, 5);
      expect(r!.spans[1]).toBeNull();
      expect(r!.spans[2]).toBeNull();
    });
  });

  it('tells which spans a pass would pool by tokenizing alone, as the pass itself pools them', async () => {
    await withEmbedder({ modelDir: cutDir }, async (cut) => {
      const requests = [
        { text: '今天天气很好我们去公园散步吧', spans: [[2, 4], [4, 8], [9, 11]] as const },
        // A text that starts with a character the vocabulary lacks: its [UNK] is taken for a framing
        // token, its tokens do not add up to its characters, and no span is pooled.
        { text: '🙂们去公园', spans: [[0, 4]] as const },
        { text: '天气很好🙂们去', spans: [[0, 2], [4, 7]] as const },
      ];
      const pooled = await cut.embedWithSpans!(requests);
      expect(cut.poolableSpans!(requests)).toEqual([
        [true, false, false],
        [false],
        [true, true],
      ]);
      expect(pooled.map((r) => r.spans.map((v) => v !== null))).toEqual(cut.poolableSpans!(requests));
    });
  });

  it('pools facts past the cut from passes over the passage’s rest, each less half of its own pass’s vector, where the rest is the cheaper', async () => {
    await withEmbedder({ modelDir: cutDir }, async (cut) => {
      expect(poolsSpans(cut)).toBe(true);
      if (!poolsSpans(cut)) return;
      const text = '今天天气很好我们去公园散步吧';
      const facts = [
        { id: 1, text: '天气' },
        { id: 2, text: '我们去公园' },
        { id: 3, text: '散步吧' },
      ];
      const made = await embedPassagesWithFacts(cut, [text], () => facts);
      // Six characters a pass: the passage, then its rest from the first fact past the cut, twice.
      expect(made.restsRun).toEqual(['我们去公园散步吧', '散步吧']);
      const close = (v: Float32Array | undefined, expected: Float32Array) => {
        expect(v).toBeDefined();
        for (let j = 0; j < DIM; j++) expect(v![j]!).toBeCloseTo(expected[j]!, 5);
      };
      const pooledIn = (pass: string, from: number, to: number) => {
        const context = expectedVector(pass.slice(0, 6), 'mean');
        return unit(Array.from(expectedSpan(pass, from, to), (x, j) => x - PASSAGE_SHARE_REMOVED * context[j]!));
      };
      close(made.vectors.get(text), expectedVector(text.slice(0, 6), 'mean'));
      close(made.facts.get(1), pooledIn(text, 2, 4));
      close(made.facts.get(2), pooledIn('我们去公园散步吧', 0, 5));
      close(made.facts.get(3), pooledIn('散步吧', 0, 3));

      // No pass over the rest, and the facts left to be embedded alone, for a passage whose rest costs
      // more than all its facts alone; one with a fact longer than a pass (never pooled); and one whose
      // passes would leave a fact unpooled (tokenizing tells before the model runs: here the rest would
      // begin with a character the vocabulary lacks).
      const refused: [string, string[]][] = [
        ['天气很好我们去公园散步今天天气很好我们去公园散步吧', ['天气', '很好我们去公园']],
        ['天气很好我们去公园散步', ['天气', '很好我们去公园散步']],
        ['天气很好🙂们去公园', ['天气', '🙂们去公园']],
      ];
      for (const [passage, factTexts] of refused) {
        const left = await embedPassagesWithFacts(cut, [passage], () => factTexts.map((t, i) => ({ id: 10 + i, text: t })));
        expect(left.restsRun).toEqual([]);
        expect(left.facts.size).toBe(0);
        close(left.vectors.get(passage), (await cut.embed([passage]))[0]!);
      }
    });
  });

  it('refuses a max_seq_length that is not a token count', async () => {
    writeFileSync(join(cutDir, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: '256' }));
    await expect(createTransformersEmbedder({ modelDir: cutDir })).rejects.toThrow(/max_seq_length must be an integer/);
    writeFileSync(join(cutDir, 'sentence_bert_config.json'), '{ not json');
    await expect(createTransformersEmbedder({ modelDir: cutDir })).rejects.toThrow(/is not JSON/);
  });
});

describe.skipIf(!hasTokenizer)('transformers.js embedder: a sentence-transformers folder’s pooling and prompts', () => {
  /** Embeds `text` with `e` and with the plain folder's embedder, and checks the vectors are the same. */
async function expectPlainVector(e: Embedder, text: string): Promise<void> {
  const [[v], [w]] = [await e.embed([text]), await embedder.embed([text])];
  expect(Array.from(v!)).toEqual(Array.from(w!));
}

/** A copy of the tiny model folder with the given sentence-transformers files beside it. */
  function folderWith(name: string, files: Record<string, unknown>): string {
    const dir = copyOfModel(name);
    for (const [file, value] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), typeof value === 'string' ? value : JSON.stringify(value));
    }
    return dir;
  }

  it('pools by [CLS] where 1_Pooling/config.json says so (BGE), and names it in its id', async () => {
    const dir = folderWith('tiny-cls', { '1_Pooling/config.json': { word_embedding_dimension: DIM, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false } });
    await withEmbedder({ modelDir: dir }, async (cls) => {
      expect(cls.id).toBe('transformers:tiny-cls+cls');
      await expectEmbeds(cls, '机器学习', 'cls');
    });
  });

  it('finds the pooling module where modules.json puts it, and a mean-pooling folder keeps the plain id', async () => {
    const dir = folderWith('tiny-mean', {
      'modules.json': [
        { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
        { idx: 1, name: '1', path: 'pool', type: 'sentence_transformers.models.Pooling' },
      ],
      'pool/config.json': { pooling_mode_mean_tokens: true },
      // Not the module modules.json names: would say CLS if it were read.
      '1_Pooling/config.json': { pooling_mode_cls_token: true },
    });
    await withEmbedder({ modelDir: dir }, async (mean) => {
      expect(mean.id).toBe('transformers:tiny-mean');
      await expectPlainVector(mean, '北京欢迎你');
    });
  });

  it('puts the query prompt before questions and the passage prompt before indexed texts (E5)', async () => {
    const dir = folderWith('tiny-e5', { 'config_sentence_transformers.json': { prompts: { query: '问：', passage: '文：' }, default_prompt_name: null } });
    await withEmbedder({ modelDir: dir }, async (e5) => {
      expect(e5.id).toBe('transformers:tiny-e5+prompts');
      expect(e5.embedQueries).toBeTypeOf('function');
      const [passage] = await e5.embed(['北京欢迎你']);
      const [query] = await e5.embedQueries!(['北京欢迎你']);
      const [plainPassage, plainQuery, plain] = await embedder.embed(['文：北京欢迎你', '问：北京欢迎你', '北京欢迎你']);
      expect(Array.from(passage!)).toEqual(Array.from(plainPassage!));
      expect(Array.from(query!)).toEqual(Array.from(plainQuery!));
      expect(dot(query!, plain!)).toBeLessThan(0.999);
      expect(dot(passage!, query!)).toBeLessThan(0.999);
    });
    // A model with no prompts embeds questions as it embeds passages.
    expect(embedder.embedQueries).toBeUndefined();
  });

  it('reads sentence-transformers’ "document" prompt as the passage prompt', async () => {
    const dir = folderWith('tiny-doc', { 'config_sentence_transformers.json': { prompts: { document: '文：' } } });
    await withEmbedder({ modelDir: dir }, async (doc) => {
      const [v] = await doc.embed(['北京']);
      const [w] = await embedder.embed(['文：北京']);
      expect(Array.from(v!)).toEqual(Array.from(w!));
      // No query prompt: a question is embedded bare.
      const [q] = await doc.embedQueries!(['北京']);
      const [bare] = await embedder.embed(['北京']);
      expect(Array.from(q!)).toEqual(Array.from(bare!));
    });
  });

  it('refuses a pooling it does not implement, or a file that is not JSON, naming the file', async () => {
    const max = folderWith('tiny-max', { '1_Pooling/config.json': { pooling_mode_max_tokens: true } });
    await expect(createTransformersEmbedder({ modelDir: max })).rejects.toThrow(/1_Pooling[\\/]config\.json: pooling max_tokens is not supported/);
    const bad = folderWith('tiny-bad', { 'config_sentence_transformers.json': '{ prompts' });
    await expect(createTransformersEmbedder({ modelDir: bad })).rejects.toThrow(/config_sentence_transformers\.json is not JSON/);
  });
});
