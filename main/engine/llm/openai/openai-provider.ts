// Any server that speaks OpenAI's chat-completions protocol (Ollama, llama.cpp server, LM Studio, vLLM).
// Always streams (server-sent events), so long answers show progress and timeouts can be per call.
import {
  LlmAbortError,
  LlmTimeoutError,
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
} from '../provider.js';

export interface OpenAiCompatibleOptions {
  /** e.g. `http://127.0.0.1:11434` or `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** The model name the server knows. */
  model: string;
  apiKey?: string;
  /** Defaults to `model`. */
  id?: string;
  defaultTimeoutMs?: number;
}

interface StreamChunk {
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { completion_tokens?: number } | null;
  error?: { message?: string };
}

export class OpenAiCompatibleProvider implements LlmProvider {
  readonly id: string;
  private readonly endpoint: string;

  constructor(private readonly opts: OpenAiCompatibleOptions) {
    this.id = opts.id ?? opts.model;
    const base = opts.baseUrl.replace(/\/+$/, '');
    this.endpoint = `${/\/v1$/.test(base) ? base : `${base}/v1`}/chat/completions`;
  }

  async generate(req: GenerateRequest): Promise<GenerateResult> {
    if (req.signal?.aborted) throw new LlmAbortError(req.signal.reason);
    const controller = new AbortController();
    const timeoutMs = req.timeoutMs ?? this.opts.defaultTimeoutMs;
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.stream(req, controller.signal);
    } catch (err) {
      if (timedOut) throw new LlmTimeoutError(timeoutMs!);
      if (req.signal?.aborted) throw new LlmAbortError(req.signal.reason);
      throw err;
    } finally {
      if (timer) clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {
    // Stateless over HTTP: nothing to release.
  }

  private async stream(req: GenerateRequest, signal: AbortSignal): Promise<GenerateResult> {
    const messages = [
      ...(req.system ? [{ role: 'system', content: req.system }] : []),
      { role: 'user', content: req.responsePrefix ? `${req.prompt}\n\n${req.responsePrefix}` : req.prompt },
    ];
    const body = {
      model: this.opts.model,
      messages,
      max_tokens: req.maxTokens,
      temperature: req.temperature ?? 0,
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      ...(req.stop?.length ? { stop: req.stop.slice(0, 4) } : {}),
      stream: true,
      stream_options: { include_usage: true },
      ...(req.jsonSchema
        ? // Not `strict`: OpenAI's strict mode demands additionalProperties:false everywhere; local servers
          // (llama.cpp, Ollama, vLLM, LM Studio) turn the schema into a grammar either way.
          { response_format: { type: 'json_schema', json_schema: { name: 'output', schema: req.jsonSchema } } }
        : {}),
    };
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
    if (!res.ok || !res.body) {
      const detail = await res.text().catch(() => '');
      throw new Error(`The model server answered ${res.status} ${res.statusText}: ${detail.slice(0, 300)}`);
    }
    // A server cannot prefill the reply: the prefix was asked for in the prompt and starts the text here.
    let text = req.responsePrefix ?? '';
    let pieces = 0;
    let usageTokens: number | undefined;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let cut: number;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        if (!data) continue;
        if (data === '[DONE]') return { text, tokens: usageTokens ?? pieces };
        const chunk = JSON.parse(data) as StreamChunk;
        if (chunk.error) throw new Error(`The model server failed: ${chunk.error.message ?? 'unknown error'}`);
        if (chunk.usage?.completion_tokens != null) usageTokens = chunk.usage.completion_tokens;
        const piece = chunk.choices?.[0]?.delta?.content;
        if (piece) {
          text += piece;
          pieces++;
          req.onToken?.(piece);
        }
      }
    }
    // Some servers close the stream without a [DONE] line; what arrived is the answer.
    return { text, tokens: usageTokens ?? pieces };
  }
}
