import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { ALL_BENCH_METHODS } from '../../bench/names.js';

const DATA = fileURLToPath(new URL('../../../../shared/data/crud/', import.meta.url));
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

/** `loci bench-scale` (npm run bench:scale): index time, latency and memory of every method as the corpus grows. */
export function registerBenchScale(program: Command): void {
  program
    .command('bench-scale')
    .description('Measure index time, retrieval latency p50/p95 and memory per method at growing corpus sizes (CRUD-RAG Chinese news)')
    .option('--news <file>', 'gzipped JSON Lines news corpus {id, text}', `${DATA}news.jsonl.gz`)
    .option('--questions <files>', 'comma-separated CRUD question files for the latency runs', ['1doc', '2doc', '3doc'].map((n) => `${DATA}questions_${n}_dev.json`).join(','))
    .option('--sizes <list>', 'comma-separated corpus sizes', '1000,10000,50000')
    .option('--methods <list>', 'comma-separated methods', ALL_BENCH_METHODS.join(','))
    .option('--queries <n>', 'questions per method and size', '50')
    .option('--k <n>', 'contexts per question', '5')
    .option('--json', 'print the rows as JSON')
    .action(async (o: { news: string; questions: string; sizes: string; methods: string; queries: string; k: string; json?: boolean }) => {
      const { formatScale, runScale } = await import('../../bench/scale.js');
      const rows = await runScale({
        newsFile: o.news,
        questionFiles: list(o.questions),
        sizes: list(o.sizes).map(Number),
        methods: list(o.methods),
        queries: Number(o.queries),
        k: Number(o.k),
        onProgress: o.json ? undefined : (m) => process.stderr.write(`${m}\n`),
      });
      process.stdout.write(o.json ? `${JSON.stringify(rows, null, 2)}\n` : formatScale(rows));
    });
}
