// Structured output: the model is asked for JSON under a schema, the reply is parsed and validated, a
// broken reply is retried (bounded, a little warmer each time), and a reply that never validates comes
// back as a recorded failure instead of an exception.
import type { z } from 'zod';
import type { BuiltPrompt } from './prompts/index.js';
import { isAbortError, type LlmProvider } from './provider.js';

export interface StructuredOptions {
  maxTokens: number;
  /** Extra attempts after the first when the output does not parse or validate. */
  retries?: number;
  temperature?: number;
  /** Base sampling seed; each attempt uses the next one, so a run is reproducible. */
  seed?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type StructuredResult<T> =
  | { ok: true; value: T; tokens: number; attempts: number }
  | { ok: false; error: string; tokens: number; attempts: number };

export async function generateStructured<T>(
  llm: LlmProvider,
  built: BuiltPrompt,
  schema: z.ZodType<T>,
  opts: StructuredOptions,
): Promise<StructuredResult<T>> {
  const retries = opts.retries ?? 2;
  let tokens = 0;
  let error = 'no attempt made';
  let thrown: unknown;
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    try {
      const res = await llm.generate({
        system: built.system,
        prompt: built.prompt,
        jsonSchema: built.jsonSchema,
        maxTokens: opts.maxTokens,
        temperature: (opts.temperature ?? 0) + (attempt - 1) * 0.3,
        seed: (opts.seed ?? 1) + attempt - 1,
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
      });
      thrown = undefined;
      tokens += res.tokens;
      const parsed = schema.safeParse(parseJsonLoosely(res.text));
      if (parsed.success) return { ok: true, value: parsed.data, tokens, attempts: attempt };
      error = `invalid output: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`;
    } catch (err) {
      if (isAbortError(err)) throw err;
      thrown = err;
      error = err instanceof Error ? err.message : String(err);
    }
  }
  // A model that answers badly is recorded; a model that cannot answer at all (process gone, server
  // down, every call timing out) is an error, so the caller does not store an empty result as done.
  if (thrown) throw thrown;
  return { ok: false, error, tokens, attempts: retries + 1 };
}

/** JSON.parse, tolerating prose or code fences around the object (servers without schema support). */
export function parseJsonLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start >= 0 && end > start) {
      try {
        return JSON.parse(text.slice(start, end + 1));
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
}
