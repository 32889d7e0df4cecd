import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { isAbortError, LlmTimeoutError } from '../../main/engine/llm/provider.js';
import { tinyModelPath } from './helpers/tiny-model.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 40 },
    items: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 30 }, minItems: 1, maxItems: 3 },
  },
  required: ['name', 'items'],
};

describe('local GGUF provider (real tiny model in a child process)', () => {
  let llm: LocalLlamaProvider;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), threads: 1, sequences: 2 });
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('loads the model in another process and generates', async () => {
    expect(llm.pid).toBeGreaterThan(0);
    expect(llm.pid).not.toBe(process.pid);
    expect(llm.info?.sequences).toBe(2);
    expect(llm.info?.threads).toBe(1);
    expect(llm.info?.mode).toBe('completion'); // the tiny model has no chat template
    const r = await llm.generate({ prompt: 'Once upon a time', maxTokens: 32 });
    expect(r.text.length).toBeGreaterThan(0);
    expect(r.tokens).toBeGreaterThan(0);
    expect(r.tokens).toBeLessThanOrEqual(32);
  });

  it('streams tokens that add up to the text', async () => {
    const pieces: string[] = [];
    const r = await llm.generate({ system: 'A story.', prompt: 'Tom and Lily', maxTokens: 24, onToken: (t) => pieces.push(t) });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(r.text);
  });

  it('follows a JSON schema (output parses and has the required shape)', async () => {
    for (const prompt of ['A list:', 'The dog', 'Names of toys']) {
      const r = await llm.generate({ prompt, maxTokens: 200, jsonSchema: schema });
      const value = JSON.parse(r.text) as { name: unknown; items: unknown };
      expect(typeof value.name).toBe('string');
      expect(Array.isArray(value.items)).toBe(true);
      expect((value.items as unknown[]).length).toBeGreaterThanOrEqual(1);
      expect((value.items as unknown[]).length).toBeLessThanOrEqual(3);
    }
  });

  it('runs requests on parallel sequences (more requests than sequences all complete)', async () => {
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => llm.generate({ prompt: `Story number ${i}:`, maxTokens: i % 2 ? 200 : 48, jsonSchema: i % 2 ? schema : undefined })),
    );
    expect(results).toHaveLength(6);
    for (const [i, r] of results.entries()) {
      expect(r.tokens).toBeGreaterThan(0);
      if (i % 2) expect(() => JSON.parse(r.text)).not.toThrow();
    }
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it('cancels a generation through its AbortSignal, and keeps serving', async () => {
    const controller = new AbortController();
    let seen = 0;
    const pending = llm.generate({
      prompt: 'Once upon a time',
      maxTokens: 100_000,
      signal: controller.signal,
      onToken: () => {
        if (++seen === 5) controller.abort();
      },
    });
    await expect(pending).rejects.toSatisfy(isAbortError);
    expect(seen).toBeGreaterThanOrEqual(5);
    const after = await llm.generate({ prompt: 'Then', maxTokens: 8 });
    expect(after.tokens).toBeGreaterThan(0);
  });

  it('rejects a call that exceeds its timeout, and keeps serving', async () => {
    await expect(llm.generate({ prompt: 'Once upon a time', maxTokens: 100_000, timeoutMs: 150 })).rejects.toBeInstanceOf(LlmTimeoutError);
    const after = await llm.generate({ prompt: 'Then', maxTokens: 8 });
    expect(after.tokens).toBeGreaterThan(0);
  });

  it('survives the model process being killed mid-request: the request completes after a restart', async () => {
    const before = llm.pid!;
    const restarts = llm.restarts;
    const streamed: string[] = [];
    let killed = false;
    const pending = llm.generate({
      prompt: 'Lily went to the park',
      maxTokens: 300,
      onToken: (t) => {
        streamed.push(t);
        if (!killed && streamed.length === 3) {
          killed = true;
          process.kill(before, 'SIGKILL');
        }
      },
    });
    const r = await pending;
    expect(killed).toBe(true);
    expect(r.tokens).toBeGreaterThan(0);
    expect(llm.restarts).toBe(restarts + 1);
    expect(llm.pid).not.toBe(before);
    // The retried generation is streamed on without repeating what was already sent.
    expect(streamed.join('')).toBe(r.text);
  });

  it('fails a request for good when the process dies more often than the retry bound', async () => {
    const fragile = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), maxRetries: 0 });
    try {
      let killed = false;
      const pending = fragile.generate({
        prompt: 'Once',
        maxTokens: 100_000,
        onToken: () => {
          if (!killed) {
            killed = true;
            process.kill(fragile.pid!, 'SIGKILL');
          }
        },
      });
      await expect(pending).rejects.toThrow(/died/);
      // The next request starts a fresh process.
      const r = await fragile.generate({ prompt: 'Then', maxTokens: 8 });
      expect(r.tokens).toBeGreaterThan(0);
    } finally {
      await fragile.close();
    }
  });
});

describe('local GGUF provider in chat mode (the chat-session path real chat models take)', () => {
  it('generates, streams and follows a JSON schema through a chat session', async () => {
    const llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), mode: 'chat', sequences: 2 });
    try {
      expect(llm.info?.mode).toBe('chat');
      const pieces: string[] = [];
      const r = await llm.generate({ system: 'Tell stories.', prompt: 'A story about a cat', maxTokens: 24, onToken: (t) => pieces.push(t) });
      expect(r.tokens).toBeGreaterThan(0);
      expect(pieces.join('')).toBe(r.text);
      const both = await Promise.all([1, 2].map(() => llm.generate({ system: 'JSON only.', prompt: 'Names', maxTokens: 200, jsonSchema: schema })));
      for (const b of both) expect(Array.isArray((JSON.parse(b.text) as { items: unknown }).items)).toBe(true);
    } finally {
      await llm.close();
    }
  });
});
