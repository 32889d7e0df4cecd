import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { PROMPT_VERSION } from '../../main/engine/llm/prompts/index.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';
import { at } from '../support/must.js';

// The real tiny GGUF writes nonsense: these tests check structure, provenance and caching, never content.
const samples = resolve(import.meta.dirname, '../../resources/sample-notes');
let dir: string;
let engine: LociEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-llm-engine-'));
  await cp(samples, join(dir, 'notes'), { recursive: true });
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), model: await tinyModelPath() });
});
afterAll(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the engine with a local model', () => {
  // The tiny model's pass over 12 notes takes 1–4 minutes on a shared 2-core machine.
  it('one folder job: fast mode, then the model rewrites every note, then the graph step', async () => {
    const phases: string[] = [];
    const job = engine.library.startJob(join(dir, 'notes'), { onProgress: (p) => phases.push(p.phase) });
    const searchable = await job.searchable;
    expect(searchable.model).toBeUndefined();
    const final = await job.done;
    const report = final.model;
    expect(report?.refined).toBe(12);
    expect(report?.error).toBeNull();
    expect(report?.extractor).toBe(`llm:stories260K@${PROMPT_VERSION}`);
    const stats = engine.views.stats();
    // The model's rows replaced fast mode's in every note (the tiny model may write no FCI for some notes,
    // so FCIs are counted by extractor, and every note's mind map is the model's).
    expect(stats.extractors.map((e) => e.extractor)).toEqual([report!.extractor]);
    // Fast pass before the model pass, the graph after it; every note now shows its model rows.
    expect(phases.indexOf('extract')).toBeLessThan(phases.indexOf('llm'));
    expect(phases.lastIndexOf('graph')).toBeGreaterThan(phases.indexOf('llm'));
    expect(new Set(engine.views.documents().map((d) => d.state))).toEqual(new Set(['model']));
    // Every row the model made is embedded, and no document waits for the graph step.
    const db = engine.db;
    expect(db.prepare("SELECT count(*) FROM mm_nodes m WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = 'mm' AND e.owner_id = m.id)").pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM graph_pending').pluck().get()).toBe(0);
    // Cached: a second pass does no model work.
    const again = await engine.model.refine();
    expect(again?.refined).toBe(0);
    expect(again?.calls).toBe(0);
    // After an upgrade of fast mode (the index carries no pipeline version), notes the model extracted
    // keep the model's rows: only fast-mode notes are extracted again, and here there are none.
    db.prepare("DELETE FROM settings WHERE key = 'fast_pipeline'").run();
    const upgraded = await engine.library.startJob(join(dir, 'notes')).done;
    expect([upgraded.changed, upgraded.unchanged]).toEqual([0, 12]);
    expect(engine.views.stats().extractors.map((e) => e.extractor)).toEqual([report!.extractor]);
  }, 600_000);

  it('streams a generated answer whose citations all resolve to given sources', async () => {
    const tokens: string[] = [];
    const a = await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'hybrid', k: 5, onToken: (t) => tokens.push(t) });
    expect(a.mode).toBe('generated');
    expect(a.model).toBe('stories260K');
    expect(tokens.length).toBeGreaterThan(1);
    expect(a.text.length).toBeGreaterThan(0);
    for (const m of a.text.matchAll(/\[(\d+)\]/g)) expect(Number(m[1])).toBeLessThanOrEqual(a.contexts.length);
    for (const c of a.citations) {
      const source = at(a.contexts, c.n - 1, `context [${c.n}] of a citation`);
      expect([c.docPath, c.lineFrom, c.lineTo]).toEqual([source.docPath, source.lineFrom, source.lineTo]);
    }
    const stored = await engine.answers.chat(a.chatId!);
    expect(at(stored, 1).text).toBe(a.text);
  });

  it('follows the model setting: set, it answers with the model; cleared, it is back to extractive', async () => {
    const other = await LociEngine.open({ dbPath: join(dir, 'index.db') });
    try {
      expect((await other.answers.ask('What water hardness do I aim for?', { method: 'bm25' })).mode).toBe('extractive');
      await other.settings.update({ model: await tinyModelPath() });
      const generated = await other.answers.ask('What water hardness do I aim for?', { method: 'bm25' });
      expect(generated.mode).toBe('generated');
      expect(generated.model).toBe('stories260K');
      await other.settings.update({ model: null });
      expect((await other.answers.ask('What water hardness do I aim for?', { method: 'bm25' })).mode).toBe('extractive');
    } finally {
      await other.close();
    }
  }, 600_000);
});
