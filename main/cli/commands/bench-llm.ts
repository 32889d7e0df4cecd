import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { LlmBenchReport } from '../../engine/llm/bench.js';
import { print } from '../options.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const DEFAULT_MODEL = join(REPO, '../shared/models/stories260K/stories260K.gguf');
const DEFAULT_NOTES = join(REPO, 'test/fixtures/llm/notes');

export function registerBenchLlm(program: Command): void {
  program
    .command('bench-llm')
    .description("LLM pipeline throughput: generated tokens/s against the model's raw speed, and the parallel-sequence speed-up")
    .option('--model <id|path>', 'GGUF model (default: the tiny stories260K test model)', DEFAULT_MODEL)
    .option('--notes <folder>', 'notes to extract', DEFAULT_NOTES)
    .option('--threads <n>', 'llama.cpp threads', '1')
    .option('--sequences <list>', 'parallel sequence counts to compare', '1,2,4')
    .option('--rounds <n>', 'alternating measurement rounds (best of each kept)', '2')
    .option('--json', 'print machine-readable JSON')
    .action(async (opts: { model: string; notes: string; threads: string; sequences: string; rounds: string; json?: boolean }) => {
      // Loaded on use: registering the command must not load the model runtime.
      const { createStaticEmbedder } = await import('../../engine/embed/static-embedder.js');
      const { parseNote } = await import('../../engine/ingest/parse.js');
      const { runLlmBench } = await import('../../engine/llm/bench.js');
      const { resolveModelFile } = await import('../../engine/llm/models/installed.js');
      const modelPath = resolveModelFile(opts.model);
      const notes = listNotes(opts.notes).map((f) => parseNote(relative(opts.notes, f), readFileSync(f, 'utf8')));
      const report = await runLlmBench({
        modelPath,
        notes,
        embedder: await createStaticEmbedder(),
        threads: Number(opts.threads),
        sequences: opts.sequences.split(',').map(Number),
        rounds: Number(opts.rounds),
        onStep: opts.json ? undefined : (s) => process.stderr.write(`… ${s}\n`),
      });
      print(!!opts.json, report, () => formatBench(report));
    });
}

function listNotes(dir: string): string[] {
  return readdirSync(dir)
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && /\.(md|markdown|txt)$/i.test(f))
    .sort();
}

const tps = (s: { tokensPerSecond: number; tokens: number; seconds: number }) =>
  `${s.tokensPerSecond.toFixed(0).padStart(6)} tok/s  (${s.tokens} tokens in ${s.seconds.toFixed(2)} s)`;

export function formatBench(r: LlmBenchReport): string {
  return [
    `bench:llm — model ${r.model}, threads ${r.threads}, ${r.notes} notes, ${r.requests} model requests, best of ${r.rounds} rounds`,
    `  raw, plain text (in-process)           ${tps(r.rawPlain)}`,
    `  raw, replaying the pipeline's requests ${tps(r.rawReplay)}`,
    `  pipeline (extractWithModel, 1 seq)     ${tps(r.pipeline)}  ${r.pipeline.calls} calls, ${r.pipeline.failures} output failures`,
    `  ratio pipeline / raw replay            ${r.ratioVsReplay.toFixed(2)}  (target ≥ 0.80)`,
    `  ratio pipeline / raw plain             ${r.ratioVsPlain.toFixed(2)}`,
    `  parallel sequences (all requests at once through the model process):`,
    ...r.parallel.map((p) => `    ${String(p.sequences).padStart(2)} seq ${tps(p)}  speed-up ×${p.speedup.toFixed(2)}`),
  ].join('\n');
}
