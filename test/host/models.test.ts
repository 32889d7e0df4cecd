import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher, validatedEmit } from '../../main/contract/dispatcher.js';
import { openLlm } from '../../main/engine/llm/open.js';
import { modelService } from '../../main/host/models.js';
import { someHandlersFrom } from '../../main/host/contract-services.js';
import { modelsInSettings } from '../../main/engine/llm/models/remove.js';
import { tinyModelFile } from '../llm/helpers/tiny-model.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { buildTinyBertOnnx } from '../embed/build-tiny-onnx.js';

const TOKENIZER = path.join(import.meta.dirname, '../../../shared/models/tokenizers/bge-small-zh-v1.5');

// The contract's models.* calls over the real catalogue and the real tiny GGUF (the shared copy or the
// vendored fixture; downloads are tested against a local server where the downloader lives).
const GGUF = tinyModelFile();

const statSize = (file: string) => readFileSync(file).length;

function setup(settings: Record<string, unknown> = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-models-'));
  const events: unknown[] = [];
  const models = modelService(validatedEmit((_e, p) => events.push(p)), () => modelsInSettings(settings), () => dir);
  const d = createDispatcher(someHandlersFrom({ models }));
  return { dir, d, settings };
}

describe('models.* calls', () => {
  it('lists the catalogue and an empty models folder', async () => {
    const { d, dir } = setup();
    const r = await d.dispatch('models.list', {});
    expect(r.ok).toBe(true);
    const list = (r as { result: { dir: string; catalogue: { id: string }[]; installed: unknown[] } }).result;
    expect(list.dir).toBe(dir);
    expect(list.catalogue.map((m) => m.id)).toContain('stories260K');
    expect(list.installed).toEqual([]);
  });

  it('imports a real GGUF, which then shows as installed', async () => {
    const { d } = setup();
    const r = await d.dispatch('models.import', { file: GGUF });
    expect(r).toMatchObject({ ok: true, result: { id: 'stories260K' } });
    const list = await d.dispatch('models.list', {});
    expect((list as { result: { installed: { id: string; sizeBytes: number }[] } }).result.installed).toEqual([
      expect.objectContaining({ id: 'stories260K', kind: 'gguf', sizeBytes: 1185376, embedder: null, catalogueId: 'stories260K', inUse: null }),
    ]);
  });

  it.runIf(existsSync(path.join(TOKENIZER, 'tokenizer.json')))('lists an installed embedding model with the embedder spec that uses it, and not one still downloading', async () => {
    const { d, dir } = setup();
    // A transformers.js folder as `models pull` lays it out: the real tokenizer beside a tiny ONNX model built here.
    const folder = path.join(dir, 'tiny-embedder');
    mkdirSync(path.join(folder, 'onnx'), { recursive: true });
    for (const f of readdirSync(TOKENIZER)) copyFileSync(path.join(TOKENIZER, f), path.join(folder, f));
    const { vocab_size } = JSON.parse(readFileSync(path.join(folder, 'config.json'), 'utf8')) as { vocab_size: number };
    writeFileSync(path.join(folder, 'onnx', 'model_quantized.onnx'), buildTinyBertOnnx({ vocabSize: vocab_size, dim: 16 }).onnx);
    // Another whose weights are still arriving: only the partial file is there.
    const pending = path.join(dir, 'pending-embedder');
    mkdirSync(path.join(pending, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'tokenizer.json']) copyFileSync(path.join(TOKENIZER, f), path.join(pending, f));
    writeFileSync(path.join(pending, 'onnx', 'model_quantized.onnx.partial'), 'half');

    const r = await d.dispatch('models.list', {});
    const installed = (r as { result: { installed: { id: string; kind: string; file: string; embedder: string | null; sizeBytes: number }[] } }).result.installed;
    expect(installed).toEqual([{ id: 'tiny-embedder', kind: 'transformers.js', file: folder, embedder: `transformers:${folder}`, sizeBytes: expect.any(Number), catalogueId: null, inUse: null }]);
    expect(installed[0]!.sizeBytes).toBeGreaterThan(statSize(path.join(folder, 'tokenizer.json')));
    // The spec it gives is one the engine loads.
    const embedder = await createEmbedder(installed[0]!.embedder!);
    try {
      expect(embedder.id).toBe('transformers:tiny-embedder');
      expect(embedder.dim).toBe(16);
    } finally {
      await embedder.dispose?.();
    }
  });

  it('says which catalogue entry an installed GGUF is, by its file name, which need not be its id', async () => {
    const { d, dir } = setup();
    // As `models pull qwen2.5-0.5b-instruct-q4_k_m` saves it (the real tiny GGUF stands in for the weights).
    copyFileSync(GGUF, path.join(dir, 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf'));
    copyFileSync(GGUF, path.join(dir, 'my-own-model.gguf'));
    const r = await d.dispatch('models.list', {});
    const installed = (r as { result: { installed: { id: string; catalogueId: string | null }[] } }).result.installed;
    expect(installed.map((m) => [m.id, m.catalogueId]).sort()).toEqual([
      ['Qwen2.5-0.5B-Instruct-Q4_K_M', 'qwen2.5-0.5b-instruct-q4_k_m'],
      ['my-own-model', null],
    ]);
  });

  it('removes an installed model the settings do not use, and refuses one they use or one not installed', async () => {
    const { d, dir, settings } = setup({ model: 'qwen2.5-0.5b-instruct-q4_k_m', embedder: 'glove' });
    copyFileSync(GGUF, path.join(dir, 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf'));
    copyFileSync(GGUF, path.join(dir, 'spare.gguf'));
    const folder = path.join(dir, 'all-minilm-l6-v2');
    mkdirSync(path.join(folder, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx']) writeFileSync(path.join(folder, f), '{}');
    const listed = async () => ((await d.dispatch('models.list', {})) as { result: { installed: { id: string; inUse: string | null }[] } }).result.installed;
    const ids = async () => (await listed()).map((m) => m.id).sort();

    const spare = await d.dispatch('models.remove', { id: 'spare' });
    expect(spare).toEqual({ ok: true, result: { id: 'spare', file: path.join(dir, 'spare.gguf'), freedBytes: 1185376 } });
    expect(existsSync(path.join(dir, 'spare.gguf'))).toBe(false);
    // The model setting names it by its catalogue id; the embedder setting by its folder's spec.
    const chat = await d.dispatch('models.remove', { id: 'Qwen2.5-0.5B-Instruct-Q4_K_M' });
    expect(!chat.ok && chat.error.message).toMatch(/Qwen2.5-0.5B-Instruct-Q4_K_M is in use for answers: choose another model first/);
    settings.embedder = `transformers:${folder}/`; // spelled with a trailing slash: the same folder
    const embedder = await d.dispatch('models.remove', { id: 'all-minilm-l6-v2' });
    expect(!embedder.ok && embedder.error.message).toMatch(/in use for search: choose another embedder first/);
    expect(await ids()).toEqual(['Qwen2.5-0.5B-Instruct-Q4_K_M', 'all-minilm-l6-v2']);
    // The listing says so, so the UI offers no Remove for them.
    expect(Object.fromEntries((await listed()).map((m) => [m.id, m.inUse]))).toEqual({ 'Qwen2.5-0.5B-Instruct-Q4_K_M': 'answers', 'all-minilm-l6-v2': 'search' });
    // Once the settings use other models, both go: the folder with everything in it.
    settings.model = '';
    settings.embedder = 'glove';
    expect(await d.dispatch('models.remove', { id: 'all-minilm-l6-v2' })).toMatchObject({ ok: true, result: { file: folder } });
    expect(existsSync(folder)).toBe(false);
    expect(await d.dispatch('models.remove', { id: 'Qwen2.5-0.5B-Instruct-Q4_K_M' })).toMatchObject({ ok: true });
    expect(await ids()).toEqual([]);
    // Nothing outside the folder, nothing not installed.
    for (const id of ['..', '.', 'spare']) {
      const r = await d.dispatch('models.remove', { id });
      expect(!r.ok && r.error.message).toMatch(/not an installed model id|No installed model spare/);
    }
    expect(existsSync(dir)).toBe(true);
  });

  it('refuses a file that is not a GGUF, unknown ids and bad ids, naming the call', async () => {
    const { d, dir } = setup();
    const fake = path.join(dir, 'notes.gguf');
    writeFileSync(fake, 'not a model');
    const r = await d.dispatch('models.import', { file: fake });
    expect(!r.ok && r.error.message).toMatch(/^loci call "models.import" failed: .*not a readable GGUF model file/);
    const unknown = await d.dispatch('models.pull', { id: 'no-such-model' });
    expect(!unknown.ok && unknown.error.message).toMatch(/not in the model catalogue/);
    const bad = await d.dispatch('models.pull', { id: '../../etc/passwd' });
    expect(!bad.ok && bad.error.message).toMatch(/"models.pull": invalid request — id: not a catalogue id/);
    expect(await d.dispatch('models.cancelPull', { id: 'stories260K' })).toEqual({ ok: true, result: { cancelled: false } });
  });

  // Probe 12: the answer told a page whether any path exists ("No such file" vs "not a GGUF").
  it('refuses a missing file, a folder, an unreadable and a non-GGUF file with one and the same message', async () => {
    const { d, dir } = setup();
    const fake = path.join(dir, 'secret.txt');
    writeFileSync(fake, 'root:x:0:0');
    const messages = [];
    for (const file of [fake, path.join(dir, 'no-such-file.gguf'), dir]) {
      const r = await d.dispatch('models.import', { file });
      expect(r.ok).toBe(false);
      messages.push(!r.ok && r.error.message.replace(file, '<file>'));
    }
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toBe('loci call "models.import" failed: <file> is not a readable GGUF model file.');
    expect(messages[0]).not.toContain('root');
  });

  // Probe 12: a model path naming a non-GGUF file answered with the file's first bytes (llama.cpp's
  // "Invalid GGUF magic ... got \"root\"").
  it('refuses a model path that is not a GGUF without echoing its content', async () => {
    const { dir } = setup();
    const file = path.join(dir, 'passwd');
    writeFileSync(file, 'root:x:0:0:root:/root:/bin/bash\n');
    const err = await openLlm(file).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(`${file} is not a GGUF model file.`);
    expect((err as Error).message).not.toMatch(/root:|"root/);
  });
});
