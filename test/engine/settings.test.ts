import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { DEFAULT_SETTINGS } from '../../main/engine/settings.js';
import { buildTinyBertOnnx } from '../embed/build-tiny-onnx.js';

const samples = resolve(import.meta.dirname, '../../resources/sample-notes');
const TOKENIZER = resolve(import.meta.dirname, '../../../shared/models/tokenizers/bge-small-zh-v1.5');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-settings-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('settings', () => {
  it('lists every setting with its default on a fresh index, so a UI can edit them', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'fresh.db') });
    try {
      expect(engine.settings()).toEqual(DEFAULT_SETTINGS);
      expect(engine.settings().method).toBe('loci');
    } finally {
      await engine.close();
    }
  });

  it('rejects a bad value naming the setting, and stores nothing of that update', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'bad.db') });
    try {
      await expect(engine.updateSettings({ threads: 2, method: 'magic' })).rejects.toThrow(/'method' must be one of/);
      await expect(engine.updateSettings({ threads: 'two' })).rejects.toThrow(/'threads' must be a number/);
      await expect(engine.updateSettings({ fusionFact: 1.5 })).rejects.toThrow(/at most 1/);
      await expect(engine.updateSettings({ colour: 'red' })).rejects.toThrow(/Unknown setting 'colour'/);
      expect(engine.settings().threads).toBe(1);
      await engine.updateSettings({ threads: 2, model: 'x.gguf' });
      await engine.updateSettings({ model: null });
      expect(engine.settings()).toMatchObject({ threads: 2, model: '' });
    } finally {
      await engine.close();
    }
  });

  it('applies the fusion and neighbour settings to the next index run', async () => {
    const strict = await LociEngine.open({ dbPath: join(dir, 'strict.db') });
    const loose = await LociEngine.open({ dbPath: join(dir, 'loose.db') });
    try {
      await loose.updateSettings({ fusionTopic: 0.5, fusionFact: 0.8, docNeighbours: 1 });
      const a = await strict.index(samples);
      const b = await loose.index(samples);
      expect(a.counts.docEdges).toBe(a.counts.documents * 3);
      expect(b.counts.docEdges).toBe(b.counts.documents);
      expect(b.counts.superNodes).toBeGreaterThan(a.counts.superNodes);
    } finally {
      await strict.close();
      await loose.close();
    }
  });

  it.runIf(existsSync(join(TOKENIZER, 'tokenizer.json')))('switches the embedder live and re-embeds the index for it', async () => {
    // A transformers.js model folder: the real tokenizer next to a tiny ONNX model built here.
    const modelDir = join(dir, 'tiny-bge');
    mkdirSync(join(modelDir, 'onnx'), { recursive: true });
    for (const f of readdirSync(TOKENIZER)) copyFileSync(join(TOKENIZER, f), join(modelDir, f));
    const { vocab_size } = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as { vocab_size: number };
    writeFileSync(join(modelDir, 'onnx', 'model.onnx'), buildTinyBertOnnx({ vocabSize: vocab_size, dim: 32 }).onnx);

    const engine = await LociEngine.open({ dbPath: join(dir, 'switch.db') });
    try {
      await engine.index(samples);
      const before = engine.embedder.id;
      await engine.updateSettings({ embedder: `transformers:${modelDir}` });
      await engine.switchEmbedder(`transformers:${modelDir}`); // waits for the switch the update started
      expect(engine.embedder.id).not.toBe(before);
      expect(engine.embedder.dim).toBe(32);
      const docs = engine.db.prepare("SELECT count(*) FROM embeddings WHERE owner_kind = 'doc' AND model = ?").pluck().get(engine.embedder.id);
      expect(docs).toBe(12);
      const a = await engine.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'dense', k: 3 });
      expect(a.contexts.length).toBe(3);
    } finally {
      await engine.close();
    }
  });
});
