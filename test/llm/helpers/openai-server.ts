// A small server speaking OpenAI's chat-completions protocol, backed by a REAL local model (the tiny
// GGUF), so the OpenAI-compatible provider is tested against a real model's text over real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlmProvider } from '../../../main/engine/llm/provider.js';

interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens?: number;
  temperature?: number;
  stream?: boolean;
  response_format?: { type: string; json_schema?: { schema: object } };
}

export interface TestOpenAiServer {
  url: string;
  /** Bodies received, for asserting what the provider sent. */
  requests: ChatBody[];
  close(): Promise<void>;
}

export async function startOpenAiServer(llm: LlmProvider, modelName: string): Promise<TestOpenAiServer> {
  const requests: ChatBody[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data: [{ id: modelName, object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as ChatBody;
      requests.push(body);
      if (body.model !== modelName) {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: `model ${body.model} not found` } }));
        return;
      }
      const system = body.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
      const prompt = body.messages.filter((m) => m.role !== 'system').map((m) => m.content).join('\n');
      const jsonSchema = body.response_format?.type === 'json_schema' ? body.response_format.json_schema?.schema : undefined;
      const abort = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const id = `chatcmpl-${requests.length}`;
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
        llm
          .generate({
            system: system || undefined,
            prompt,
            maxTokens: body.max_tokens ?? 128,
            temperature: body.temperature,
            jsonSchema,
            signal: abort.signal,
            onToken: (t) => send({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: t }, finish_reason: null }] }),
          })
          .then((r) => {
            send({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
            send({ id, object: 'chat.completion.chunk', choices: [], usage: { completion_tokens: r.tokens } });
            res.end('data: [DONE]\n\n');
          })
          .catch((err: Error) => {
            if (!res.writableEnded) res.end(`data: ${JSON.stringify({ error: { message: err.message } })}\n\n`);
          });
      } else {
        llm
          .generate({ system: system || undefined, prompt, maxTokens: body.max_tokens ?? 128, temperature: body.temperature, jsonSchema, signal: abort.signal })
          .then((r) => {
            res.setHeader('content-type', 'application/json');
            res.end(JSON.stringify({ id, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: r.text }, finish_reason: 'stop' }], usage: { completion_tokens: r.tokens } }));
          })
          .catch((err: Error) => {
            res.statusCode = 500;
            res.end(JSON.stringify({ error: { message: err.message } }));
          });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
