// ask.cancel over the contract, as a host composes it (main/host/compose.ts), with the real tiny GGUF
// answering: the answer stops at the first streamed piece, nothing of it is saved, and the model answers
// the next question as usual.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDispatcher, type Dispatcher, type Emit } from '../../main/contract/dispatcher.js';
import type { CallName, EventName, Req, Res } from '../../main/contract/contract.js';
import { composeHost, type Host } from '../../main/host/compose.js';
import { LociEngine } from '../../main/engine/engine.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';
import { mustCall } from '../support/contract-call.js';

let dir: string;
let engine: LociEngine;
let host: Host;
let d: Dispatcher;
let tokens: { streamId: string; token: string; at: number }[];
let onFirstToken: (() => void) | null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-ask-cancel-'));
  await cp(resolve('test/fixtures/notes'), join(dir, 'notes'), { recursive: true });
  // Indexed in fast mode first: the model pass over the notes is not what this test is about.
  const fast = await LociEngine.open({ dbPath: join(dir, 'index.db') });
  await fast.library.index(join(dir, 'notes'));
  await fast.close();
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), model: await tinyModelPath() });
  tokens = [];
  onFirstToken = null;
  const emit = ((event: EventName, payload: { streamId: string; token: string }) => {
    if (event !== 'answer.token') return;
    tokens.push({ ...payload, at: performance.now() });
    const first = onFirstToken;
    onFirstToken = null;
    first?.();
  }) as Emit;
  host = composeHost({ engine, emit, host: { host: 'browser', canPickFolder: false, version: 'test' }, modelsDir: () => join(dir, 'models') });
  d = createDispatcher(host.handlers);
});

afterEach(async () => {
  host.stop();
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

const call = <K extends CallName>(name: K, request: Req<K>) => mustCall(d, name, request);

describe('ask.cancel', () => {
  it('stops a local model mid-answer; nothing is saved and the next question is answered', async () => {
    let cancelled: Promise<Res<'ask.cancel'>> | null = null;
    let cancelledAt = 0;
    onFirstToken = () => {
      cancelledAt = performance.now();
      cancelled = call('ask.cancel', { streamId: 'q1' });
    };
    const asked = await d.dispatch('ask', { question: 'Who composed the score of The Lantern film directed by Sofie Brandt?', streamId: 'q1', method: 'bm25' });
    expect(asked.ok).toBe(false);
    expect(!asked.ok && asked.error.message).toMatch(/cancelled/);
    expect(!asked.ok && asked.error.code).toBe('conflict');
    expect(cancelled).not.toBeNull();
    expect(await cancelled!).toEqual({ cancelled: true });
    // Nothing of the stopped answer streams after the cancel, and no conversation was saved.
    await new Promise((r) => setTimeout(r, 300));
    expect(tokens.filter((t) => t.streamId === 'q1' && t.at > cancelledAt)).toEqual([]);
    expect(await call('chats.list', {})).toEqual([]);

    const answer = await call('ask', { question: 'Who composed the score of The Lantern film directed by Sofie Brandt?', streamId: 'q2', method: 'bm25' });
    expect(answer.mode).toBe('generated');
    expect(answer.contexts.length).toBeGreaterThan(0);
    expect(answer.text.trim().length).toBeGreaterThan(0);
    expect((await call('chats.list', {})).length).toBe(1);
  });

  it('says false for a stream that is not being answered', async () => {
    expect(await call('ask.cancel', { streamId: 'nothing-running' })).toEqual({ cancelled: false });
  });
});
