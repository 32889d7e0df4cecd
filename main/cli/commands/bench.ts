import type { Command } from 'commander';
import { DATASET_FORMATS, loadDataset, type DatasetFormat } from '../../engine/bench/datasets.js';
import { ALL_BENCH_METHODS, formatReport, runBench } from '../../engine/bench/runner.js';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

/** `loci bench`: retrieval quality and cost of every method, side by side, on a standard QA file. */
export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('Benchmark retrieval methods on a multi-hop QA file (HotpotQA, MuSiQue, 2Wiki, HippoRAG): recall@k, answer recall, latency, index time, memory')
    .requiredOption('--dataset <file>', 'questions file (JSON or JSON Lines)')
    .option('--format <format>', `one of ${DATASET_FORMATS.join(', ')} (detected when absent)`)
    .option('--corpus <file>', 'HippoRAG corpus file of {title, text} passages')
    .option('--methods <list>', 'comma-separated methods', ALL_BENCH_METHODS.join(','))
    .option('--k <list>', 'comma-separated cut-offs', '2,5,10')
    .option('--limit <n>', 'only the first n questions')
    .option('--db <file>', 'keep the index in this database file instead of a temporary one')
    .option('--answer <model>', "also score the model's generated answers (EM/F1/containment) from loci, bm25 and no context (issue 13)")
    .option('--json', 'print the report as JSON')
    .action(async (o: { dataset: string; format?: string; corpus?: string; methods: string; k: string; limit?: string; db?: string; json?: boolean; answer?: string }) => {
      if (o.format && !(DATASET_FORMATS as string[]).includes(o.format)) throw new Error(`--format must be one of ${DATASET_FORMATS.join(', ')}`);
      const ks = list(o.k).map(Number);
      if (ks.some((k) => !Number.isInteger(k) || k <= 0)) throw new Error('--k takes positive integers, e.g. 2,5,10');
      const ds = loadDataset(o.dataset, {
        format: o.format as DatasetFormat | undefined,
        corpus: o.corpus,
        limit: o.limit !== undefined ? Number(o.limit) : undefined,
      });
      const report = await runBench(ds, o.dataset, {
        methods: list(o.methods),
        ks,
        dbFile: o.db,
        onProgress: o.json ? undefined : (m) => process.stderr.write(`${m}\n`),
      });
      process.stdout.write(o.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
      if (o.answer) {
        // Answer evaluation lives with the model code (main/engine/llm/answer-bench.ts); loaded only when asked.
        const { runAnswerBench, formatAnswerReport } = await import('../../engine/llm/answer-bench.js');
        const answers = await runAnswerBench(ds, { model: o.answer, k: Math.min(...ks), onProgress: o.json ? undefined : (m) => process.stderr.write(`${m}\n`) });
        process.stdout.write(o.json ? `${JSON.stringify(answers, null, 2)}\n` : `${formatAnswerReport(answers)}\n`);
      }
    });
}
