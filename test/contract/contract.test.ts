import { MessageChannel } from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../main/contract/client.js';
import { callNames, calls, eventNames } from '../../main/contract/contract.js';
import { createDispatcher, validatedEmit, type Handlers } from '../../main/contract/dispatcher.js';
import { LociCallError } from '../../main/contract/errors.js';
import { ipcTransport, IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../main/contract/transports/ipc.js';
import { portTransport, servePort, type PortLike } from '../../main/contract/transports/message-port.js';

// These tests exercise the contract's validation and transports; the handlers below are small
// in-test implementations of a few calls (the engine itself is tested in test/engine).
const answer = {
  question: 'q',
  text: 'A fact [1]',
  mode: 'extractive' as const,
  model: null,
  method: 'loci' as const,
  contexts: [],
  matchKeys: ['fact'],
  citations: [{ n: 1, docPath: 'a.md', docTitle: 'A', lineFrom: 3, lineTo: 4, factPath: 'A › B', text: 'A fact' }],
  answerable: true,
  answerScore: 0.9,
  droppedCitations: 0,
  ms: 5,
};

function handlers(over: Partial<Handlers> = {}): Partial<Handlers> {
  return {
    'library.roots': () => ['/notes'],
    ask: ({ question }) => ({ ...answer, question }),
    'settings.update': ({ patch }) => ({ ...patch }),
    ...over,
  };
}

describe('contract declaration', () => {
  it('declares each call once with request and response schemas', () => {
    expect(new Set(callNames).size).toBe(callNames.length);
    for (const name of callNames) {
      expect(calls[name].request.safeParse).toBeTypeOf('function');
      expect(calls[name].response.safeParse).toBeTypeOf('function');
    }
    expect(eventNames).toEqual(['index.progress', 'index.report', 'index.error', 'embedder.switch', 'engine.error', 'engine.warning', 'answer.token', 'models.progress', 'ui.show']);
  });
});

describe('dispatcher validation', () => {
  const d = createDispatcher(handlers());

  it('rejects a wrong field type, naming the call and the field', async () => {
    const r = await d.dispatch('ask', { question: 42 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('contract');
    expect(r.error.call).toBe('ask');
    expect(r.error.issues?.[0]?.path).toBe('question');
    expect(r.error.message).toMatch(/^loci call "ask": invalid request — question: /);
  });

  it('rejects missing fields, unknown fields and out-of-range numbers', async () => {
    const missing = await d.dispatch('notes.text', {});
    expect(!missing.ok && missing.error.message).toMatch(/"notes.text".*docPath/);
    const extra = await d.dispatch('library.roots', { evil: true });
    expect(!extra.ok && extra.error.message).toMatch(/"library.roots".*evil/);
    const k = await d.dispatch('ask', { question: 'why', k: 1000 });
    expect(!k.ok && k.error.issues?.[0]?.path).toBe('k');
    const empty = await d.dispatch('ask', { question: '   ' });
    expect(!empty.ok && empty.error.message).toMatch(/question: the question is empty/);
    const nested = await d.dispatch('settings.update', { patch: 'threads=2' });
    expect(!nested.ok && nested.error.issues?.[0]?.path).toBe('patch');
  });

  it('rejects unknown calls', async () => {
    const r = await d.dispatch('fs.readFile', { path: '/etc/passwd' });
    expect(!r.ok && r.error.message).toBe('loci: unknown call "fs.readFile"');
    const proto = await d.dispatch('__proto__', {});
    expect(proto.ok).toBe(false);
  });

  it('validates what the engine returns', async () => {
    const bad = createDispatcher(handlers({ ask: () => ({ ...answer, citations: [{ n: 'one' }] }) as never }));
    const r = await bad.dispatch('ask', { question: 'why' });
    expect(!r.ok && r.error.message).toMatch(/"ask": invalid response — citations\.0\.n/);
  });

  it('reports engine failures with the call name', async () => {
    const failing = createDispatcher(handlers({ 'library.roots': () => { throw new Error('db is closed'); } }));
    const r = await failing.dispatch('library.roots', {});
    expect(r).toEqual({ ok: false, error: { kind: 'engine', call: 'library.roots', code: 'internal', message: 'loci call "library.roots" failed: db is closed' } });
  });

  it('passes valid requests through, trimmed and typed', async () => {
    const r = await d.dispatch('ask', { question: '  who?  ', method: 'bm25' });
    expect(r.ok && (r.result as { question: string }).question).toBe('who?');
  });
});

describe('events', () => {
  it('only sends known events whose payload is valid', () => {
    const sent: string[] = [];
    const problems: string[] = [];
    const emit = validatedEmit((e) => sent.push(e), (m) => problems.push(m));
    emit('answer.token', { streamId: 's1', token: 'Hi' });
    emit('index.progress', { root: '/n', progress: { phase: 'parse', done: 1, total: 'x' } } as never);
    emit('nope' as never, {} as never);
    expect(sent).toEqual(['answer.token']);
    expect(problems[0]).toMatch(/event "index.progress": invalid event — progress.total/);
    expect(problems[1]).toMatch(/unknown event "nope"/);
  });
});

describe('client', () => {
  it('fails fast on a bad payload before it reaches the transport', async () => {
    let invoked = 0;
    const client = createClient({ invoke: async () => { invoked++; return { ok: true, result: [] }; }, subscribe: () => () => {} });
    const err = await client.call('notes.mindMap', { docPath: 7 } as never).catch((e) => e);
    expect(err).toBeInstanceOf(LociCallError);
    expect(err.message).toMatch(/"notes.mindMap": invalid request — docPath/);
    expect(invoked).toBe(0);
  });

  it('round-trips over a real MessagePort pair (the engine-process transport) with events', async () => {
    const { port1, port2 } = new MessageChannel();
    const asPort = (p: typeof port1): PortLike => ({ postMessage: (m) => p.postMessage(m), on: (_e, l) => p.on('message', l) });
    let sendEvent: (e: string, p: unknown) => void = () => {};
    const d = createDispatcher(handlers({
      ask: ({ question, streamId }) => {
        for (const t of ['An', 'swer']) sendEvent('answer.token', { streamId, token: t });
        return { ...answer, question };
      },
    }));
    sendEvent = validatedEmit(servePort(asPort(port2), d)) as (e: string, p: unknown) => void;
    const client = createClient(portTransport(asPort(port1)));
    const tokens: string[] = [];
    client.on('answer.token', (p) => tokens.push(p.token));
    const a = await client.call('ask', { question: 'why?', streamId: 's' });
    expect(a.citations[0]?.factPath).toBe('A › B');
    await new Promise((r) => setTimeout(r, 10));
    expect(tokens).toEqual(['An', 'swer']);
    const bad = await client.call('chats.get', { id: -1 }).catch((e) => e);
    expect(bad.message).toMatch(/"chats.get": invalid request — id/);
    port1.close();
  });

  it('uses exactly two IPC channels for every call and event', async () => {
    const main = new EventEmitter();
    const channels = new Set<string>();
    const d = createDispatcher(handlers());
    const ipc = {
      invoke: async (channel: string, name: unknown, req: unknown) => { channels.add(channel); return d.dispatch(name, req); },
      on: (channel: string, l: (...a: unknown[]) => void) => { channels.add(channel); main.on(channel, l); },
      removeListener: (channel: string, l: (...a: unknown[]) => void) => main.off(channel, l),
    };
    const client = createClient(ipcTransport(ipc));
    const seen: number[] = [];
    client.on('index.progress', (p) => seen.push(p.progress.done));
    main.emit(IPC_EVENT_CHANNEL, {}, 'index.progress', { root: '/n', progress: { phase: 'parse', done: 3, total: 9, etaSeconds: 2 } });
    expect(await client.call('library.roots', {})).toEqual(['/notes']);
    expect(await client.call('settings.update', { patch: { threads: 1 } })).toEqual({ threads: 1 });
    expect(seen).toEqual([3]);
    expect([...channels].sort()).toEqual([IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL].sort());
  });
});
