import { resolve } from 'node:path';
import type { Command } from 'commander';
import { print } from '../options.js';

const DEFAULT_SETS = 'hotpotqa-train-100,2wiki-hipporag-700,silverbullet-qa,foam-qa';

/** `loci bench-grounding`: the extractive answer against a model's grounded answer, side by side on the dev sets. */
export function registerBenchGrounding(program: Command): void {
  program
    .command('bench-grounding')
    .description("extractive vs a model's generated, grounded answers on the dev sets: EM/F1/containment, citation precision, share of sentences grounded, seconds per answer")
    .requiredOption('--model <id|path>', 'the model that answers (a GGUF, an installed model or http(s)://server/v1#model)')
    .option('--sets <list>', 'dev-suite sets (comma-separated)', DEFAULT_SETS)
    .option('--limit <n>', 'the first n questions of each set')
    .option('--data <dir>', 'shared data folder', '../shared/data')
    .option('--embedder <spec>', "the index's embedder", 'glove')
    .option('--k <n>', 'contexts per question', '5')
    .option('--max-tokens <n>', 'longest generated answer, in tokens', '128')
    .option('--threads <n>', 'llama.cpp threads', '1')
    .option('--keep-index <dir>', "keep each corpus's index here and reuse it next time")
    .option('--json', 'print the report as JSON')
    .action(async (o: { model: string; sets: string; limit?: string; data: string; embedder: string; k: string; maxTokens: string; threads: string; keepIndex?: string; json?: boolean }) => {
      const int = (name: string, v: string) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} takes a positive whole number, not '${v}'`);
        return n;
      };
      const { createEmbedder } = await import('../../engine/embed/registry.js');
      const { runGroundingBench, formatGroundingReport } = await import('../../bench/grounded-answers.js');
      const embedder = await createEmbedder(o.embedder);
      try {
        const report = await runGroundingBench(embedder, {
          model: o.model,
          dataDir: resolve(o.data),
          sets: o.sets.split(',').map((s) => s.trim()).filter(Boolean),
          limit: o.limit ? int('--limit', o.limit) : undefined,
          k: int('--k', o.k),
          maxTokens: int('--max-tokens', o.maxTokens),
          threads: int('--threads', o.threads),
          indexDir: o.keepIndex ? resolve(o.keepIndex) : undefined,
          onProgress: (m) => process.stderr.write(`${m}\n`),
        });
        print(!!o.json, report, () => formatGroundingReport(report));
      } finally {
        await embedder.dispose?.();
      }
    });
}
