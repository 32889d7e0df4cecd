// The staged instruction-tuned model, SmolLM2-135M-Instruct (scripts/fetch-bench-models smollm2). Skipped, with
// the reason printed, where it is not staged. Its prompt format must come from the GGUF's own chat template.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { findBenchModel } from '../support/bench-models.js';

const SMOLLM2 = findBenchModel('smollm2');
const SLOW = 5 * 60_000;

describe.skipIf(!SMOLLM2)('the staged SmolLM2-135M-Instruct', () => {
  let llm: LocalLlamaProvider;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: SMOLLM2!, threads: 1, sequences: 1 });
  }, SLOW);
  afterAll(async () => {
    await llm?.close();
  });

  it('speaks chat through the wrapper node-llama-cpp resolves from the GGUF template (ChatML), on the threads asked for', () => {
    expect(llm.info?.mode).toBe('chat');
    expect(llm.info?.chatWrapper).toBe('ChatML');
    expect(llm.info?.threads).toBe(1);
  });

  it('answers in the assistant turn, without turn markers leaking into the text', async () => {
    const res = await llm.generate({ system: 'Answer in one short sentence.', prompt: 'What colour is the sky on a clear day?', maxTokens: 24, temperature: 0 });
    expect(res.text.trim().length).toBeGreaterThan(0);
    expect(res.text).not.toMatch(/<\|im_(start|end)\|>|^assistant/);
  }, SLOW);
});
