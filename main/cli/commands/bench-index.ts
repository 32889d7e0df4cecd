import type { Command } from 'commander';
import { join, resolve } from 'node:path';
import { jsonOption, print } from '../options.js';

const DEFAULT_FOLDER = join(resolve(import.meta.dirname, '../../../../shared/data'), 'notes/silverbullet_docs');

/** `loci bench-index` (npm run bench:index): indexing against the floor and the peers (main/bench/indexing.ts). */
export function registerBenchIndex(program: Command): void {
  program
    .command('bench-index')
    .description('measure indexing against the floor and peers: phases, full run, unchanged re-run, one note changed; peak memory')
    .argument('[folder]', 'notes folder (default: ../shared/data/notes/silverbullet_docs)', DEFAULT_FOLDER)
    .option('--news <n>', 'index the first n CRUD-RAG news articles (one note each, named by id) instead of a folder')
    .option('--no-peers', 'skip MiniSearch and Orama')
    .option('--queries', 'ask a question every 250 ms during the full index and report the latency (p50, p95)')
    .option('--no-one-note', 'skip the unchanged re-run and the one-note re-index')
    .option('--embedder <spec>', "embedder Loci indexes with ('glove', 'transformers:<folder>', …); the run also times each distinct passage text embedded once by it (the floor) and the fast index")
    .option('--rounds <n>', 'run it all n times, one after another, and report the round with the median embedding-floor ratio with every round’s ratio (one run at a few hundred notes says little)', '1')
    .option('--progress', 'log each phase and every 5,000 notes (elapsed time, peak memory) to stderr, for long runs')
    .addOption(jsonOption())
    .action(async (folder: string, opts: { json?: boolean; embedder?: string; news?: string; peers?: boolean; queries?: boolean; oneNote?: boolean; progress?: boolean; rounds: string }) => {
      const { formatIndexBench, runIndexBenchRounds } = await import('../../bench/indexing.js');
      const result = await runIndexBenchRounds(folder, opts, Number(opts.rounds));
      print(!!opts.json, result, () => formatIndexBench(result));
    });
}
