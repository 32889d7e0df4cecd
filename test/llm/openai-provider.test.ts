import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { openLlm } from '../../main/engine/llm/open.js';
import { OpenAiCompatibleProvider } from '../../main/engine/llm/openai/openai-provider.js';
import { isAbortError, LlmTimeoutError } from '../../main/engine/llm/provider.js';
import { startOpenAiServer, type TestOpenAiServer } from './helpers/openai-server.js';
import { tinyModelPath } from './helpers/tiny-model.js';

describe('OpenAI-compatible provider against a local server backed by the real tiny model', () => {
  let backend: LocalLlamaProvider;
  let server: TestOpenAiServer;
  beforeAll(async () => {
    backend = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), sequences: 2 });
    server = await startOpenAiServer(backend, 'stories260K');
  });
  afterAll(async () => {
    await server?.close();
    await backend?.close();
  });

  it('streams a completion over SSE; the pieces add up to the text', async () => {
    const llm = new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'stories260K' });
    const pieces: string[] = [];
    const r = await llm.generate({ system: 'Tell a story.', prompt: 'Once upon a time', maxTokens: 40, onToken: (t) => pieces.push(t) });
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(r.text);
    expect(r.tokens).toBeGreaterThan(0);
    expect(r.tokens).toBeLessThanOrEqual(40);
    const sent = server.requests.at(-1)!;
    expect(sent.stream).toBe(true);
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sent.max_tokens).toBe(40);
  });

  it('sends a JSON schema as response_format and gets output that parses', async () => {
    const llm = new OpenAiCompatibleProvider({ baseUrl: `${server.url}/v1`, model: 'stories260K' });
    const schema = { type: 'object', properties: { words: { type: 'array', items: { type: 'string', maxLength: 20 }, minItems: 1, maxItems: 3 } }, required: ['words'] };
    const r = await llm.generate({ prompt: 'Words:', maxTokens: 120, jsonSchema: schema });
    const value = JSON.parse(r.text) as { words: unknown[] };
    expect(Array.isArray(value.words)).toBe(true);
    expect(value.words.length).toBeGreaterThanOrEqual(1);
    const sent = server.requests.at(-1)!;
    expect(sent.response_format?.type).toBe('json_schema');
    expect(sent.response_format?.json_schema?.schema).toEqual(schema);
  });

  it('is what openLlm returns for an http(s)://…#model spec', async () => {
    const llm = await openLlm(`${server.url}#stories260K`);
    expect(llm).toBeInstanceOf(OpenAiCompatibleProvider);
    expect(llm.id).toBe('stories260K');
    const r = await llm.generate({ prompt: 'Tom', maxTokens: 8 });
    expect(r.tokens).toBeGreaterThan(0);
  });

  it('reports a server error with its status', async () => {
    const llm = new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'no-such-model' });
    await expect(llm.generate({ prompt: 'x', maxTokens: 4 })).rejects.toThrow(/404/);
  });

  it('cancels and times out', async () => {
    const llm = new OpenAiCompatibleProvider({ baseUrl: server.url, model: 'stories260K' });
    const controller = new AbortController();
    let n = 0;
    const pending = llm.generate({ prompt: 'Once', maxTokens: 100_000, signal: controller.signal, onToken: () => ++n === 3 && controller.abort() });
    await expect(pending).rejects.toSatisfy(isAbortError);
    await expect(llm.generate({ prompt: 'Once', maxTokens: 100_000, timeoutMs: 200 })).rejects.toBeInstanceOf(LlmTimeoutError);
    // The server stopped generating for the dropped connections and still answers.
    const r = await llm.generate({ prompt: 'Then', maxTokens: 8 });
    expect(r.tokens).toBeGreaterThan(0);
  });
});
