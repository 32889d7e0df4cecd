import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { LlmBenchReport } from '../../bench/llm-speed.js';
import type { ExtractStrategy } from '../../engine/llm/prompts/index.js';
import type { QualityReport } from '../../bench/llm-quality.js';
import { print } from '../options.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const DEFAULT_MODEL = join(REPO, '../shared/models/stories260K/stories260K.gguf');
const DEFAULT_NOTES = join(REPO, 'test/fixtures/llm/notes');

export function registerBenchLlm(program: Command): void {
  program
    .command('bench-llm')
    .description("LLM pipeline throughput: generated tokens/s against the model's raw speed, and the parallel-sequence speed-up")
    .option('--model <id|path>', 'GGUF model (default: the tiny stories260K test model)', DEFAULT_MODEL)
    .option('--notes <folders|files>', 'notes to extract (comma-separated folders or note files)', DEFAULT_NOTES)
    .option('--threads <n>', 'llama.cpp threads (with --tuning: a list, e.g. 1,2)', '1')
    .option('--sequences <list>', 'parallel sequence counts to compare', '1,2,4')
    .option('--rounds <n>', 'alternating measurement rounds (best of each kept)', '2')
    .option('--quality', 'report what the model pass makes and costs per extraction strategy, against fast mode')
    .option('--strategies <list>', 'with --quality: separate (p1), combined (p2), free (p3f, the default)', 'separate,combined,free')
    .option('--limit <n>', 'with --quality or --tuning: only the first n notes (sorted by path) of each folder')
    .option('--tuning', 'notes per minute of the model pass for each --threads × --sequences, to choose the defaults')
    .option('--json', 'print machine-readable JSON')
    .action(async (opts: { model: string; notes: string; threads: string; sequences: string; rounds: string; json?: boolean; quality?: boolean; tuning?: boolean; strategies: string; limit?: string }) => {
      // Loaded on use: registering the command must not load the model runtime.
      const { createStaticEmbedder } = await import('../../engine/embed/static-embedder.js');
      const { parseNote } = await import('../../engine/ingest/parse.js');
      // Each entry is a folder (its notes, sorted, cut to --limit) or one note file: a fixed subset is named exactly.
      const namedNotes = () =>
        opts.notes.split(',').flatMap((entry) => {
          const isFile = statSync(entry).isFile();
          const files = isFile ? [entry] : listNotesDeep(entry);
          return (opts.limit ? files.slice(0, Number(opts.limit)) : files).map((f) => {
            const source = readFileSync(f, 'utf8');
            return { note: parseNote(isFile ? basename(f) : relative(entry, f), source), source };
          });
        });
      if (opts.tuning) {
        const { runTuningBench, formatTuning } = await import('../../bench/llm-tuning.js');
        const { resolveModelFile } = await import('../../engine/llm/models/installed.js');
        const report = await runTuningBench({
          modelPath: resolveModelFile(opts.model),
          notes: namedNotes().map((n) => n.note),
          embedder: await createStaticEmbedder(),
          threads: opts.threads.split(',').map(Number),
          sequences: opts.sequences.split(',').map(Number),
          rounds: Number(opts.rounds),
          onStep: opts.json ? undefined : (s) => process.stderr.write(`… ${s}\n`),
        });
        print(!!opts.json, report, () => formatTuning(report));
        return;
      }
      if (opts.quality) {
        const { runQualityBench } = await import('../../bench/llm-quality.js');
        const { resolveModelFile } = await import('../../engine/llm/models/installed.js');
        const notes = namedNotes();
        const report = await runQualityBench({
          modelPath: resolveModelFile(opts.model),
          notes,
          embedder: await createStaticEmbedder(),
          strategies: opts.strategies.split(',') as ExtractStrategy[],
          threads: Number(opts.threads),
          sequences: Number(opts.sequences.split(',')[0]),
          onStep: opts.json ? undefined : (s) => process.stderr.write(`… ${s}\n`),
          onStrategy: (f) => process.stderr.write(`${JSON.stringify(f)}\n`),
        });
        print(!!opts.json, report, () => formatQuality(report));
        return;
      }
      const { runLlmBench } = await import('../../bench/llm-speed.js');
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

/** Every note file under a folder, sorted by path (hidden folders skipped). */
function listNotesDeep(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    const f = join(dir, name);
    if (statSync(f).isDirectory()) out.push(...listNotesDeep(f));
    else if (/\.(md|markdown|txt)$/i.test(f)) out.push(f);
  }
  return out.sort();
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

export function formatQuality(r: QualityReport): string {
  const cols = r.strategies;
  const row = (label: string, f: (s: QualityReport['strategies'][number]) => string) => `  ${label.padEnd(34)}${cols.map((c) => f(c).padStart(12)).join('')}`;
  return [
    `bench:llm --quality — model ${r.model} (chat wrapper ${r.chatWrapper ?? 'none: completion'}), threads ${r.threads}, sequences ${r.sequences}, ${r.notes.length} notes`,
    row('', (c) => c.strategy),
    row('structural validity', (c) => pct(c.validity)),
    row('consistency pass, try 1 / 2 / 3', (c) => c.passRateByTry.map((t) => pct(t.passRate)).join('/') || '–'),
    row('FCIs per note', (c) => c.fcisPerNote.toFixed(1)),
    row('FCI ROUGE-L vs cited lines', (c) => c.groundedness.toFixed(3)),
    row('FCIs grounded (ROUGE-L ≥ 0.15)', (c) => pct(c.groundedShare)),
    row('FCIs citing outside their chunk', (c) => pct(c.outsideChunkShare)),
    row('mind-map depth', (c) => c.mindMapDepth.toFixed(2)),
    row('mind-map breadth (routes)', (c) => c.mindMapBreadth.toFixed(2)),
    row('facts per route', (c) => c.factsPerRoute.toFixed(2)),
    row('triples per piece', (c) => c.triplesPerPiece.toFixed(2)),
    row('triples with both ends in note', (c) => pct(c.triplesBothEndsInNote)),
    row('model calls', (c) => String(c.calls)),
    row('tokens generated per note', (c) => c.tokensPerNote.toFixed(0)),
    row('share wasted in failed tries', (c) => pct(c.wastedShare)),
    row('notes per minute', (c) => c.notesPerMinute.toFixed(2)),
    row('recorded output failures', (c) => String(c.failures)),
    `  peak memory: model process ${r.peakModelRssKb === null ? 'n/a' : `${(r.peakModelRssKb / 1024).toFixed(0)} MB`}, main process ${(r.peakMainRssKb / 1024).toFixed(0)} MB`,
  ].join('\n');
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
