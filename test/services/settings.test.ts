import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine, type EngineEvent } from '../../main/engine/engine.js';
import { DEFAULT_SETTINGS } from '../../main/engine/settings.js';
import { PATH_SEPARATOR } from '../../main/contract/shapes/domain.js';
import { buildTinyBertOnnx } from '../embed/build-tiny-onnx.js';
import { mapOnlyTexts } from '../support/fact-paths.js';

const samples = resolve(import.meta.dirname, '../../resources/sample-notes');
const TOKENIZER = resolve(import.meta.dirname, '../../../shared/models/tokenizers/bge-small-zh-v1.5');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-settings-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** A transformers.js model folder: the real tokenizer next to a tiny ONNX model built here. */
function tinyModelFolder(name: string): string {
  const modelDir = join(dir, name);
  mkdirSync(join(modelDir, 'onnx'), { recursive: true });
  for (const f of readdirSync(TOKENIZER)) copyFileSync(join(TOKENIZER, f), join(modelDir, f));
  const { vocab_size } = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as { vocab_size: number };
  writeFileSync(join(modelDir, 'onnx', 'model.onnx'), buildTinyBertOnnx({ vocabSize: vocab_size, dim: 32 }).onnx);
  return modelDir;
}

describe('settings', () => {
  it('lists every setting with its default on a fresh index, so a UI can edit them', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'fresh.db') });
    try {
      expect(engine.settings.get()).toEqual(DEFAULT_SETTINGS);
      expect(engine.settings.get().method).toBe('loci');
    } finally {
      await engine.close();
    }
  });

  it('rejects a bad value naming the setting, and stores nothing of that update', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'bad.db') });
    try {
      await expect(engine.settings.update({ threads: 2, method: 'magic' })).rejects.toThrow(/'method' must be one of/);
      await expect(engine.settings.update({ threads: 'two' })).rejects.toThrow(/'threads' must be a number/);
      await expect(engine.settings.update({ fusionFact: 1.5 })).rejects.toThrow(/at most 1/);
      await expect(engine.settings.update({ colour: 'red' })).rejects.toThrow(/Unknown setting 'colour'/);
      expect(engine.settings.get().threads).toBe(1);
      await expect(engine.settings.update({ threads: 2, model: 'x.gguf' })).rejects.toThrow(/Setting 'model'.*x\.gguf/);
      expect(engine.settings.get().threads).toBe(1);
      await engine.settings.update({ threads: 2, model: resolve('test/fixtures/models/stories260K.gguf') });
      await engine.settings.update({ model: null });
      expect(engine.settings.get()).toMatchObject({ threads: 2, model: '' });
    } finally {
      await engine.close();
    }
  });

  it('applies the fusion and neighbour settings to the next index run', async () => {
    const strict = await LociEngine.open({ dbPath: join(dir, 'strict.db') });
    const loose = await LociEngine.open({ dbPath: join(dir, 'loose.db') });
    try {
      await loose.settings.update({ fusionTopic: 0.5, fusionFact: 0.8, docNeighbours: 1 });
      const a = await strict.library.index(samples);
      const b = await loose.library.index(samples);
      expect(a.counts.docEdges).toBe(a.counts.documents * 3);
      expect(b.counts.docEdges).toBe(b.counts.documents);
      expect(b.counts.superNodes).toBeGreaterThan(a.counts.superNodes);
    } finally {
      await strict.close();
      await loose.close();
    }
  });

  it.runIf(existsSync(join(TOKENIZER, 'tokenizer.json')))('switches the embedder live and re-embeds the index for it', async () => {
    const modelDir = tinyModelFolder('tiny-bge');

    const engine = await LociEngine.open({ dbPath: join(dir, 'switch.db') });
    try {
      await engine.library.index(samples);
      const before = engine.embedder.id;
      const events: EngineEvent[] = [];
      // What a window opened mid-switch reads, and what may not be removed meanwhile.
      const midway: { switching: unknown; search: string[]; answers: string }[] = [];
      engine.events.subscribe((e) => {
        if (e.type !== 'embedder') return;
        events.push(e);
        if (e.state === 'running' && e.progress) midway.push({ switching: engine.views.stats().switching, search: engine.settings.modelsInUse().search, answers: engine.embedder.id });
      });
      await engine.settings.update({ embedder: `transformers:${modelDir}` });
      await engine.embedders.switchEmbedder(`transformers:${modelDir}`); // waits for the switch the update started
      expect(engine.embedder.id).not.toBe(before);
      expect(midway.length).toBeGreaterThan(0);
      const stages = new Set<boolean>();
      for (const [i, m] of midway.entries()) {
        // The switch's latest progress. Until what questions read is embedded, both embedders are in use
        // and the old one answers; then the new one answers while PG-RAG's fact paths are embedded.
        const { type: _, ...latest } = events.filter((e) => e.type === 'embedder' && e.state === 'running' && e.progress)[i]!;
        expect(m.switching).toEqual(latest);
        const answering = 'answering' in latest && latest.answering === true;
        stages.add(answering);
        expect(m.answers === before).toBe(!answering);
        expect(m.search.sort()).toEqual((answering ? [`transformers:${modelDir}`] : [DEFAULT_SETTINGS.embedder, `transformers:${modelDir}`]).sort());
      }
      expect([...stages].sort()).toEqual([false, true]);
      // The fact paths come after the swap, and the graph is rebuilt with them.
      const embeds = (answering: boolean) =>
        events.filter((e) => e.type === 'embedder' && e.progress?.phase === 'embed' && (e.answering === true) === answering).map((e) => e.type === 'embedder' && e.progress!.total);
      const mm = engine.db.prepare("SELECT count(*) FROM embeddings WHERE owner_kind = 'mm' AND model = ?").pluck().get(engine.embedder.id) as number;
      expect(mm).toBeGreaterThan(0);
      expect(new Set(embeds(true))).toEqual(new Set([mm]));
      expect(engine.views.stats().switching).toBeNull();
      expect(engine.settings.modelsInUse().search).toEqual([`transformers:${modelDir}`]);
      // The host hears the re-embedding's progress (what the Settings view shows), then that it is done.
      const running = events.filter((e) => e.type === 'embedder' && e.state === 'running' && e.progress);
      const phases = new Set(running.map((e) => e.type === 'embedder' && e.progress!.phase));
      expect([...phases]).toEqual(expect.arrayContaining(['embed', 'graph']));
      for (const e of running) if (e.type === 'embedder') expect(e.progress!.done).toBeLessThanOrEqual(e.progress!.total);
      // Embedding counts texts (what Settings shows as "Embed: n / total"), not a fraction of one: first
      // every row but the fact paths, then the fact paths.
      const written = engine.db.prepare('SELECT count(*) FROM embeddings WHERE model = ?').pluck().get(engine.embedder.id) as number;
      const embedding = running.flatMap((e) => (e.type === 'embedder' && e.progress?.phase === 'embed' ? [e.progress] : []));
      for (const p of embedding) expect(Number.isInteger(p.done) && [written - mm, mm].includes(p.total)).toBe(true);
      expect(embedding.at(-1)).toMatchObject({ done: mm, total: mm, etaSeconds: 0 });
      expect(events.at(-1)).toEqual({ type: 'embedder', spec: `transformers:${modelDir}`, id: engine.embedder.id, state: 'done', progress: null });
      expect(events.filter((e) => e.type === 'embedder' && e.state !== 'running')).toHaveLength(1);
      expect(engine.embedder.dim).toBe(32);
      const docs = engine.db.prepare("SELECT count(*) FROM embeddings WHERE owner_kind = 'doc' AND model = ?").pluck().get(engine.embedder.id);
      expect(docs).toBe(12);
      const a = await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'dense', k: 3 });
      expect(a.contexts.length).toBe(3);
    } finally {
      await engine.close();
    }
  });
  it.runIf(existsSync(join(TOKENIZER, 'tokenizer.json')))(
    'goes on with a switch Loci was closed during at the next start, answering with the previous embedder meanwhile',
    async () => {
      const spec = `transformers:${tinyModelFolder('tiny-resumed')}`;
      const dbPath = join(dir, 'resumed.db');
      const first = await LociEngine.open({ dbPath });
      const glove = first.embedder.id;
      let stopped: Promise<void> | null = null;
      try {
        await first.library.index(samples);
        // Closed as soon as the re-embedding has started: what quitting the app mid-switch does.
        const started = new Promise<void>((resolve) => first.events.subscribe((e) => e.type === 'embedder' && e.progress?.phase === 'embed' && resolve()));
        await first.settings.update({ embedder: spec });
        await started;
      } finally {
        stopped = first.close();
        await stopped;
      }
      const count = (engine: LociEngine, model: string) => engine.db.prepare('SELECT count(*) FROM embeddings WHERE model = ?').pluck().get(model) as number;
      // Closed part-way: some rows have the new embedder's vectors, not all.
      const closed = new Database(dbPath, { readonly: true });
      const part = closed.prepare('SELECT count(*) FROM embeddings WHERE model <> ?').pluck().get(glove) as number;
      const all = closed.prepare('SELECT count(*) FROM embeddings WHERE model = ?').pluck().get(glove) as number;
      closed.close();
      expect(part).toBeGreaterThan(0);
      expect(part).toBeLessThan(all);

      // A one-off command answers with the previous embedder and leaves the switch alone, saying so.
      const oneOff = await LociEngine.open({ dbPath, resumeSwitch: false });
      try {
        expect(oneOff.embedder.id).toBe(glove);
        expect(oneOff.views.stats().switching).toBeNull();
        expect(oneOff.events.warnings().join('\n')).toContain(`the switch to '${spec}' is not finished`);
        expect((await oneOff.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'dense', k: 3 })).contexts).toHaveLength(3);
      } finally {
        await oneOff.close();
      }
      const unchanged = new Database(dbPath, { readonly: true });
      expect(unchanged.prepare('SELECT count(*) FROM embeddings WHERE model <> ?').pluck().get(glove)).toBe(part);
      unchanged.close();

      const second = await LociEngine.open({ dbPath });
      try {
        // The setting still names the new embedder; the previous one answers until the switch is done.
        expect(second.settings.get().embedder).toBe(spec);
        expect(second.embedder.id).toBe(glove);
        expect(second.views.stats().switching).toMatchObject({ spec, state: 'running' });
        expect(second.settings.modelsInUse().search.sort()).toEqual([DEFAULT_SETTINGS.embedder, spec].sort());
        const early = await second.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'dense', k: 3 });
        expect(early.contexts.length).toBe(3);
        await second.embedders.switchEmbedder(spec);
        expect(second.embedder.id).not.toBe(glove);
        expect(second.views.stats().switching).toBeNull();
        const rows = count(second, glove);
        expect(rows).toBeGreaterThan(0);
        expect(count(second, second.embedder.id)).toBe(rows);
      } finally {
        await second.close();
      }
      // Done: the next start opens with the new embedder, with nothing left to switch.
      const third = await LociEngine.open({ dbPath });
      try {
        expect(third.embedder.dim).toBe(32);
        expect(third.views.stats().switching).toBeNull();
      } finally {
        await third.close();
      }
    },
  );

  it.runIf(existsSync(join(TOKENIZER, 'tokenizer.json')))('stops a switch when the embedder still in force is chosen again', async () => {
    const spec = `transformers:${tinyModelFolder('tiny-regretted')}`;
    const engine = await LociEngine.open({ dbPath: join(dir, 'regretted.db') });
    try {
      await engine.library.index(samples);
      const before = engine.embedder.id;
      const events: EngineEvent[] = [];
      let settle = () => {};
      const settled = new Promise<void>((resolve) => (settle = resolve));
      const started = new Promise<void>((resolve) =>
        engine.events.subscribe((e) => {
          if (e.type !== 'embedder') return;
          events.push(e);
          if (e.progress?.phase === 'embed') resolve();
          if (e.state !== 'running') settle();
        }),
      );
      await engine.settings.update({ embedder: spec });
      await started;
      await engine.settings.update({ embedder: DEFAULT_SETTINGS.embedder });
      await settled;
      await new Promise((r) => setImmediate(r)); // the switch is forgotten once its promise settles, after the event
      // The switch stopped where it was; the embedder in force and the settings agree.
      expect(engine.embedder.id).toBe(before);
      expect(engine.settings.get().embedder).toBe(DEFAULT_SETTINGS.embedder);
      expect(engine.views.stats().switching).toBeNull();
      expect(events.at(-1)).toMatchObject({ state: 'failed', spec, message: `'${DEFAULT_SETTINGS.embedder}' was chosen instead` });
      const all = engine.db.prepare('SELECT count(*) FROM embeddings WHERE model = ?').pluck().get(before) as number;
      expect(engine.db.prepare('SELECT count(*) FROM embeddings WHERE model <> ?').pluck().get(before)).toBeLessThan(all);
    } finally {
      await engine.close();
    }
  });

  it('says when embedding the fact paths fails after the new embedder answers, and the next index run finishes them', async () => {
    // An OpenAI-compatible server that embeds by characters, and fails the first request holding a
    // fact path (topic › fact), as a server that runs out of memory part-way would.
    let failed = false;
    // What the switch sends for the fact paths only (support/fact-paths.ts), read once the notes are indexed.
    let mapOnly = new Set<string>();
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const input = (JSON.parse(body) as { input: string[] }).input;
        if (!failed && input.some((t) => t.includes(PATH_SEPARATOR) || mapOnly.has(t))) {
          failed = true;
          res.writeHead(503, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { message: 'out of memory' } }));
        }
        const vector = (t: string) => [t.length % 7, (t.charCodeAt(0) || 1) % 5, 1];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: vector(t) })) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const spec = `openai:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#by-characters`;
    const engine = await LociEngine.open({ dbPath: join(dir, 'switch-fails-late.db') });
    try {
      await engine.library.index(samples);
      mapOnly = mapOnlyTexts(engine.db);
      const events: EngineEvent[] = [];
      engine.events.subscribe((e) => e.type === 'embedder' && events.push(e));
      await engine.settings.update({ embedder: spec });
      await expect(engine.embedders.switchEmbedder(spec)).rejects.toThrow(/answered 503: out of memory/);
      // The new embedder answers: the setting stays, and the failure says so.
      expect(engine.embedder.id).toBe('openai:by-characters');
      expect(engine.settings.get().embedder).toBe(spec);
      expect(events.at(-1)).toMatchObject({ state: 'failed', answering: true, message: expect.stringMatching(/out of memory/) });
      const missing = () =>
        engine.db.prepare("SELECT count(*) FROM mm_nodes n WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = 'mm' AND e.owner_id = n.id AND e.model = ?)").pluck().get(engine.embedder.id) as number;
      expect(missing()).toBeGreaterThan(0);
      expect((await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'dense', k: 3 })).contexts).toHaveLength(3);
      await engine.library.index(samples);
      expect(missing()).toBe(0);
    } finally {
      await engine.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('says when a switch fails (an embeddings server that stops answering), and keeps the embedder it had', async () => {
    // An OpenAI-compatible server that answers the embedder's probe when it loads, then fails every
    // request, as a server that ran out of memory would.
    let calls = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls++;
        res.writeHead(calls === 1 ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify(calls === 1 ? { data: [{ index: 0, embedding: [0.6, 0.8, 0] }] } : { error: { message: 'out of memory' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const spec = `openai:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#failing`;
    const engine = await LociEngine.open({ dbPath: join(dir, 'switch-fails.db') });
    try {
      await engine.library.index(samples);
      const before = engine.embedder.id;
      const events: EngineEvent[] = [];
      engine.events.subscribe((e) => (e.type === 'embedder' || e.type === 'warning') && events.push(e));
      await engine.settings.update({ embedder: spec });
      await expect(engine.embedders.switchEmbedder(spec)).rejects.toThrow(/answered 503: out of memory/);
      expect(engine.embedder.id).toBe(before);
      // Settings name the embedder still in use, not the one that failed.
      expect(engine.settings.get().embedder).toBe(DEFAULT_SETTINGS.embedder);
      expect(events.find((e) => e.type === 'embedder' && e.state === 'failed')).toMatchObject({ spec, id: 'openai:failing', message: expect.stringMatching(/answered 503: out of memory/) });
      expect(events.some((e) => e.type === 'warning' && e.message.startsWith(`Embedder '${spec}'`))).toBe(true);
      // Questions are still answered, with the embedder it had.
      expect((await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'dense', k: 3 })).contexts).toHaveLength(3);
    } finally {
      await engine.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
