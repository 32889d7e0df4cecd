// The library.* calls dispatched over a real engine, real folders and a real index, as a host wires
// them (main/host/compose.ts): validation at the contract, jobs owned by the engine, one final
// index.report per job (cancelled or not), and the model pass stopped by Cancel.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDispatcher, type Dispatcher, type Emit } from '../../main/contract/dispatcher.js';
import type { CallName, EventName, Req, Res } from '../../main/contract/contract.js';
import { composeHost, type Host } from '../../main/host/compose.js';
import { LociEngine } from '../../main/engine/engine.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';

let dir: string;
let notes: string;
let engine: LociEngine;
let host: Host;
let d: Dispatcher;
let events: { event: EventName; payload: Record<string, unknown> }[];

async function wire(opts: { model?: string } = {}) {
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), model: opts.model });
  events = [];
  const emit = ((event: EventName, payload: Record<string, unknown>) => events.push({ event, payload })) as Emit;
  host = composeHost({ engine, emit, host: { host: 'browser', canPickFolder: false, version: 'test' }, modelsDir: () => join(dir, 'models') });
  d = createDispatcher(host.handlers);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-library-calls-'));
  notes = join(dir, 'notes');
  await mkdir(notes);
  await writeFile(join(notes, 'bees.md'), '# Bees\n\n## Swarming\n\nA colony swarms in late spring when the old queen leaves with half the workers.\n');
});

afterEach(async () => {
  host.stop();
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

/** A call that must succeed, typed by the contract. */
async function call<K extends CallName>(name: K, request: Req<K>): Promise<Res<K>> {
  const r = await d.dispatch(name, request);
  if (!r.ok) throw new Error(r.error.message);
  return r.result as Res<K>;
}

function waitFor<T>(find: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  return new Promise((done, fail) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = find();
      if (found !== undefined) {
        clearInterval(poll);
        done(found);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        fail(new Error(`nothing after ${timeoutMs} ms`));
      }
    }, 25);
  });
}

describe('library calls over a real engine', () => {
  it('refuses relative paths at the contract and system trees at the engine, saving nothing', async () => {
    await wire();
    const relative = await d.dispatch('library.index', { root: 'notes' });
    expect(!relative.ok && relative.error).toMatchObject({ kind: 'contract' });
    expect(!relative.ok && relative.error.message).toMatch(/absolute/);
    const proc = await d.dispatch('library.index', { root: '/proc' });
    expect(!proc.ok && proc.error.message).toMatch(/system/);
    expect(events.filter((e) => e.event === 'index.error').map((e) => e.payload.root)).toEqual(['/proc']);
    const folders = await d.dispatch('library.folders', {});
    expect(folders).toEqual({ ok: true, result: [] });
  });

  it('indexes, lists, scopes and removes a folder; each job ends with exactly one index.report', async () => {
    await wire();
    const indexed = await call('library.index', { root: notes, watch: true });
    expect(indexed.changed).toBe(1);
    await waitFor(() => events.find((e) => e.event === 'index.report'));
    expect(events.filter((e) => e.event === 'index.report').length).toBe(1);
    expect(events.some((e) => e.event === 'index.progress')).toBe(true);

    expect(await call('library.folders', {})).toEqual([{ root: notes, include: [], exclude: [], noteCount: 1, watching: true, job: 'idle', problem: null }]);
    const docs = await call('library.documents', {});
    expect(docs.map((x) => [x.relPath, x.state])).toEqual([['bees.md', 'fast']]);

    const scoped = await call('library.setScope', { root: notes, include: [], exclude: ['bees.md'] });
    expect(scoped.removed).toBe(1);
    const badScope = await d.dispatch('library.setScope', { root: notes, include: 'bees.md', exclude: [] });
    expect(!badScope.ok && badScope.error.kind).toBe('contract');

    const removed = await d.dispatch('library.remove', { root: notes });
    expect(removed).toEqual({ ok: true, result: { root: notes, removed: 0 } });
    expect(await d.dispatch('library.roots', {})).toEqual({ ok: true, result: [] });
    const completion = await call('library.completePath', { prefix: join(dir, 'no') });
    expect(completion.matches).toEqual([notes]);
  });

  it('refuses a bogus embedder without storing it, and reports warnings', async () => {
    await wire();
    const r = await d.dispatch('settings.update', { patch: { embedder: 'bogus' } });
    expect(!r.ok && r.error.message).toMatch(/could not be loaded/);
    expect((await call('settings.get', {})).embedder).toBe('glove');
    expect(await d.dispatch('engine.warnings', {})).toEqual({ ok: true, result: [] });
  });

  it('Cancel stops the model pass: one final report says cancelled, the notes done so far keep their model rows', async () => {
    await cp(resolve(import.meta.dirname, '../../resources/sample-notes'), notes, { recursive: true });
    await wire({ model: await tinyModelPath() });
    const indexed = await d.dispatch('library.index', { root: notes });
    expect(indexed.ok).toBe(true);
    // The fast pass answered; the model pass now runs in the engine's job.
    await waitFor(() => events.find((e) => e.event === 'index.progress' && (e.payload.progress as { phase: string; done: number }).phase === 'llm' && (e.payload.progress as { done: number }).done >= 1), 120_000);
    expect((await d.dispatch('library.folders', {})).ok && engine.library.folders()[0]?.job).toMatch(/model|graph/);
    const cancel = await d.dispatch('library.cancelIndex', { root: notes });
    expect(cancel).toEqual({ ok: true, result: { cancelled: true } });
    const report = await waitFor(() => events.find((e) => e.event === 'index.report'), 60_000);
    expect(report.payload.report).toMatchObject({ cancelled: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(events.filter((e) => e.event === 'index.report').length).toBe(1);
    // Shown as cancelled, not as a failure: no index.error.
    expect(events.some((e) => e.event === 'index.error')).toBe(false);
    const states = engine.views.documents().map((x) => x.state);
    expect(states).toContain('model');
    expect(states).toContain('fast');
    // The folder stays in the library: its fast pass finished before the cancel.
    expect(engine.library.roots()).toEqual([notes]);
    expect(engine.library.folders()[0]?.job).toBe('idle');
  }, 240_000);
});
