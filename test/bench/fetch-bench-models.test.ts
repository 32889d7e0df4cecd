import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGgufFileInfo } from 'node-llama-cpp';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { writeSentenceTransformersConfig } from '../../main/engine/embed/sentence-transformers-folder.js';
import { loadCatalogue } from '../../main/engine/llm/models/catalogue.js';
import { REPO_ROOT } from '../fixtures/paths.js';
import { benchModelsDir, fileMagic, findBenchModel } from '../support/bench-models.js';

const SCRIPT = path.join(REPO_ROOT, 'scripts/fetch-bench-models');
const gemma = findBenchModel('gemma');
const minilm = findBenchModel('minilm');
const smollm2 = findBenchModel('smollm2');

describe('scripts/fetch-bench-models layout (runs when staged)', () => {
  it.skipIf(!gemma)('gemma-3-270m.gguf is a whole GGUF whose metadata names Gemma 3 270M', async () => {
    expect(fileMagic(gemma!)).toBe('GGUF');
    const info = await readGgufFileInfo(gemma!, { readTensorInfo: false });
    expect(info.metadata.general.architecture).toBe('gemma3');
    expect(String(info.metadata.general.name)).toMatch(/gemma 3 270m/i);
    // The package's own SHA256SUMS (copied beside the file) must list the hash the script pins.
    const sums = readFileSync(path.join(path.dirname(gemma!), 'SHA256SUMS'), 'utf8');
    const pinned = /GEMMA_SHA=([0-9a-f]{64})/.exec(readFileSync(SCRIPT, 'utf8'))?.[1];
    expect(pinned).toBeDefined();
    expect(sums).toContain(pinned!);
  });

  it.skipIf(!smollm2)('SmolLM2-135M-Instruct is a whole GGUF carrying its own chat template (ChatML turns) and its Apache-2.0 licence', async () => {
    expect(fileMagic(smollm2!)).toBe('GGUF');
    const info = await readGgufFileInfo(smollm2!, { readTensorInfo: false });
    expect(info.metadata.general.architecture).toBe('llama');
    const template = info.metadata.tokenizer?.chat_template;
    expect(typeof template).toBe('string');
    expect(String(template)).toContain('<|im_start|>');
    // The package's licence is staged beside the weights.
    expect(readFileSync(path.join(path.dirname(smollm2!), 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
  });

  it.skipIf(!minilm)('minilm-l6-v2-int8 loads in transformers.js and ranks a paraphrase above an unrelated text', async () => {
    const embedder = await createEmbedder(`transformers:${minilm!}`);
    try {
      expect(embedder.dim).toBe(384);
      // sentence_bert_config.json is staged: texts are cut at the 256 tokens the model was trained on.
      expect(embedder.id).toBe('transformers:minilm-l6-v2-int8@256');
      const [a, b, c] = await embedder.embed([
        'The committee postponed the vote until next week.',
        'The vote was delayed by the committee for seven days.',
        'Penguins live mostly in the southern hemisphere.',
      ]);
      const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i]!, 0);
      expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!) + 0.2);
    } finally {
      await embedder.dispose?.();
    }
  });

  it.skipIf(!minilm)('minilm-l6-v2-int8 reads no further than 256 tokens', async () => {
    const embedder = await createEmbedder(`transformers:${minilm!}`);
    try {
      // About 300 word pieces of ordinary words: a different ending past the 256th changes nothing, one
      // inside it does.
      const words = 'the quick brown fox jumps over a lazy dog near river bank while birds sing'.split(' ');
      const body = Array.from({ length: 300 }, (_, i) => words[i % words.length]).join(' ');
      const [a, b, c] = await embedder.embed([body, `${body} penguins live mostly in the southern hemisphere`, `penguins live mostly in the southern hemisphere ${body}`]);
      expect(Array.from(b!)).toEqual(Array.from(a!));
      expect(Array.from(c!)).not.toEqual(Array.from(a!));
    } finally {
      await embedder.dispose?.();
    }
  });

  it.skipIf(!minilm)('the catalogue’s all-MiniLM-L6-v2, laid out as `models pull` lays it out, embeds as the staged one does', async () => {
    // The same weights and tokenizer, without the staged sentence_bert_config.json: what the catalogue
    // declares must bring back the same id and the same vectors, so the benched figures are what a user gets.
    const entry = loadCatalogue().find((m) => m.id === 'all-minilm-l6-v2')!;
    const folder = path.join(mkdtempSync(path.join(tmpdir(), 'loci-catalogue-minilm-')), entry.id);
    cpSync(minilm!, folder, { recursive: true, filter: (src) => path.basename(src) !== 'sentence_bert_config.json' });
    writeSentenceTransformersConfig(folder, entry.embedding!);
    const [staged, pulled] = [await createEmbedder(`transformers:${minilm!}`), await createEmbedder(`transformers:${folder}`)];
    try {
      expect(pulled.id).toBe(`transformers:${entry.id}@256`);
      expect(staged.id).toBe(`transformers:${path.basename(minilm!)}@256`);
      expect(pulled.embedQueries).toBeUndefined();
      const texts = ['Penguins live mostly in the southern hemisphere.', Array.from({ length: 300 }, (_, i) => `word${i % 17}`).join(' ')];
      const [a, b] = [await staged.embed(texts), await pulled.embed(texts)];
      for (let i = 0; i < texts.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
    } finally {
      await staged.dispose?.();
      await pulled.dispose?.();
      rmSync(path.dirname(folder), { recursive: true, force: true });
    }
  });

  it.skipIf(!gemma || !minilm || !smollm2)('a second run with everything staged is a fast no-op that prints each flag', () => {
    const out = execFileSync('bash', [SCRIPT, 'gemma', 'smollm2', 'minilm'], {
      env: { ...process.env, LOCI_BENCH_MODELS: benchModelsDir() },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out).toContain(`--model ${gemma}`);
    expect(out).toContain(`--model ${smollm2}`);
    expect(out).toContain(`--embedder transformers:${minilm}`);
  });

  it('refuses an unknown model name', () => {
    expect(() =>
      execFileSync('bash', [SCRIPT, 'no-such-model'], { encoding: 'utf8', stdio: 'pipe', timeout: 10_000 }),
    ).toThrow(/unknown model 'no-such-model'/);
  });
});
