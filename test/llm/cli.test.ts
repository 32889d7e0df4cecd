// The `loci models` and `loci bench-llm` commands, driven through commander as the CLI does.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerBenchLlm } from '../../main/cli/commands/bench-llm.js';
import { registerModels } from '../../main/cli/commands/models.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { runLlmBench } from '../../main/bench/llm-speed.js';
import { tinyModelPath } from './helpers/tiny-model.js';

async function run(args: string[]): Promise<string> {
  const program = new Command().exitOverride();
  registerModels(program);
  registerBenchLlm(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  try {
    await program.parseAsync(['node', 'loci', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

describe('loci models', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'loci-models-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a GGUF and lists it as installed', async () => {
    const imported = JSON.parse(await run(['models', 'import', await tinyModelPath(), '--dir', dir, '--json'])) as { id: string; path: string };
    expect(imported.id).toBe('stories260K');
    const list = JSON.parse(await run(['models', 'list', '--dir', dir, '--json'])) as {
      catalogue: { id: string; installed: boolean }[];
      installed: { id: string }[];
    };
    expect(list.catalogue.find((m) => m.id === 'stories260K')?.installed).toBe(true);
    expect(list.catalogue.filter((m) => m.installed)).toHaveLength(1);
    expect(list.installed.map((m) => m.id)).toEqual(['stories260K']);
  });

  it('refuses to pull an id that is not in the catalogue', async () => {
    await expect(run(['models', 'pull', 'no-such-model', '--dir', dir])).rejects.toThrow(/catalogue/);
  });
});

describe('bench-llm', () => {
  it('reports pipeline and raw speeds, their ratios and the parallel speed-up from one run', async () => {
    const note = parseNote('automation.md', readFileSync(join(import.meta.dirname, '../fixtures/llm/notes/automation.md'), 'utf8'));
    const r = await runLlmBench({ modelPath: await tinyModelPath(), notes: [note], embedder: await createStaticEmbedder(), rounds: 1, sequences: [1, 2] });
    expect(r.requests).toBeGreaterThan(0);
    expect(r.pipeline.calls).toBe(r.requests);
    for (const s of [r.rawPlain, r.rawReplay, r.pipeline]) {
      expect(s.tokens).toBeGreaterThan(0);
      expect(s.tokensPerSecond).toBeCloseTo(s.tokens / s.seconds, 6);
    }
    expect(r.ratioVsReplay).toBeCloseTo(r.pipeline.tokensPerSecond / r.rawReplay.tokensPerSecond, 6);
    expect(r.parallel.map((p) => p.sequences)).toEqual([1, 2]);
    expect(r.parallel[0]!.speedup).toBe(1);
  });
});
