// The staged instruction-tuned model, SmolLM2-135M-Instruct (scripts/fetch-bench-models smollm2). Skipped, with
// the reason printed, where it is not staged. Its prompt format must come from the GGUF's own chat template,
// and its answers — which rarely cite — reach the user grounded: cited where the notes support them.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../../main/engine/api.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { REPO_ROOT, SAMPLE_NOTES } from '../fixtures/paths.js';
import { findBenchModel } from '../support/bench-models.js';

const SMOLLM2 = findBenchModel('smollm2');
const SLOW = 5 * 60_000;
const run = promisify(execFile);

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

describe.skipIf(!SMOLLM2)('loci ask --model <SmolLM2> --json on the sample notes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-smollm2-ask-'));
  const db = join(dir, 'index.db');
  const loci = (...args: string[]) => run('node', ['bin/loci.mjs', ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('grounds the model\'s answer: at least one citation resolves to the founder\'s note, and every sentence says what supports it', async () => {
    await loci('index', SAMPLE_NOTES, '--db', db);
    const { stdout } = await loci('ask', 'Where was the founder of Kestrel Coffee Works born?', '--db', db, '--model', SMOLLM2!, '--json');
    const a = JSON.parse(stdout) as Answer;
    expect(a.mode).toBe('generated');
    const founder = a.citations.filter((c) => c.docPath === 'people/Mara Lindqvist.md');
    expect(founder.length, a.text).toBeGreaterThan(0);
    // A citation names lines that really hold its text.
    const lines = (await readFile(join(SAMPLE_NOTES, founder[0]!.docPath), 'utf8')).split('\n').slice(founder[0]!.lineFrom - 1, founder[0]!.lineTo).join('\n');
    expect(lines).toContain('Mara Lindqvist');
    expect(a.support?.length).toBeGreaterThan(0);
    for (const s of a.support!) {
      expect(a.text.slice(s.start, s.end)).toBe(s.sentence);
      expect(s.supported || s.citations.length === 0).toBe(true);
      for (const n of s.citations) expect(a.text.slice(s.start, s.end)).toContain(`[${n}]`);
    }
  }, SLOW);
});
