import type { LlmProvider } from '../../../main/engine/llm/provider.js';

/** The model, counting the calls made to it (under another id when given: a "different model" for cache keys). */
export function counting(llm: LlmProvider, id = llm.id): LlmProvider & { counter: { calls: number } } {
  const c = { calls: 0 };
  const p: LlmProvider = { id, close: async () => {}, generate: (r) => (c.calls++, llm.generate(r)) };
  return Object.assign(p, { counter: c });
}
