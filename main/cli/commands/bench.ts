import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ALL_BENCH_METHODS, DATASET_FORMATS, SUITES, checkMethods, type DatasetFormat } from '../../bench/names.js';
import type { Embedder } from '../../engine/embed/embedder.js';
import { createEmbedder } from '../../engine/embed/registry.js';
import type { Db } from '../../engine/store/db.js';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

interface BenchCliOptions {
  dataset?: string;
  suite?: string;
  quick?: boolean;
  sets?: string;
  data: string;
  format?: string;
  corpus?: string;
  pool?: string;
  embedder: string;
  methods: string;
  k: string;
  limit?: string;
  db?: string;
  keepIndex?: string;
  json?: boolean;
  baseline?: string;
  /** Issue 13: a model whose generated answers are scored too. */
  answer?: string;
  /** Issue 13: the model pass over the built index, so every method reads model rows. */
  model?: string;
}

function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} takes a positive integer, got "${v}"`);
  return n;
}

/** `loci bench`: retrieval and answer quality and cost of every method, side by side, on QA sets. */
export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(
      'Benchmark retrieval methods on QA sets (HotpotQA, MuSiQue, 2Wiki, HippoRAG, CRUD-RAG news, docs-QA over a notes folder) or on every dev set at once (--suite dev): recall@k, answer found, the extractive answer shown, ask latency, index time, memory',
    )
    .option('--dataset <file>', 'questions file (JSON or JSON Lines)')
    .option('--suite <name>', `run every set of a suite side by side (${SUITES.join(', ')})`)
    .option('--quick', 'with --suite: fewer questions and a 1,000-article news pool, for iteration')
    .option('--sets <list>', 'with --suite: only these sets (comma-separated names)')
    .option('--data <dir>', 'shared data folder the suite reads', '../shared/data')
    .option('--format <format>', `one of ${DATASET_FORMATS.join(', ')} (detected when absent)`)
    .option('--corpus <path>', 'HippoRAG passages file; CRUD news.jsonl.gz (default: beside the questions); docs-QA notes folder')
    .option('--pool <n>', 'CRUD: articles in the pool, gold ones included (default 10000)')
    .option('--embedder <specs>', "comma-separated embedders, one run each: 'glove', 'transformers:<folder>', 'openai:http://host:port/v1[?batch=N&timeout=S]#model'", 'glove')
    .option('--methods <list>', 'comma-separated methods', ALL_BENCH_METHODS.join(','))
    .option('--k <list>', 'comma-separated cut-offs', '2,5,10')
    .option('--limit <n>', 'only the first n questions')
    .option('--db <file>', 'keep the index in this database file instead of a temporary one (single dataset, single embedder)')
    .option('--keep-index <dir>', 'with --suite: keep each corpus\'s index in this folder and reuse it on the next run (only the questions run again)')
    .option('--answer <model>', "with --dataset: also score the model's generated answers (EM/F1/containment) from loci, bm25 and no context")
    .option('--model <id|path>', 'with --dataset: run the model pass over the index before benching (model rows instead of fast rows; with --db, rows already made are kept)')
    .option('--baseline <file>', "a previous run's --json output: each method and set is paired with it question by question (difference and 95% bootstrap interval)")
    .option('--json', 'print the report(s) as JSON')
    .action(async (o: BenchCliOptions) => {
      if (!o.dataset === !o.suite) throw new Error('give either --dataset <file> or --suite dev');
      if (o.format && !(DATASET_FORMATS as string[]).includes(o.format)) throw new Error(`--format must be one of ${DATASET_FORMATS.join(', ')}`);
      if (o.suite && !(SUITES as readonly string[]).includes(o.suite)) throw new Error(`--suite must be one of ${SUITES.join(', ')}`);
      const ks = list(o.k).map(Number);
      if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k <= 0)) throw new Error('--k takes positive integers, e.g. 2,5,10');
      const methods = list(o.methods);
      checkMethods(methods);
      const specs = list(o.embedder);
      if (specs.length === 0) throw new Error('--embedder names no embedder');
      if (o.model && o.suite) throw new Error('--model works with one --dataset (the model pass over a suite would take hours)');
      if (o.db && (specs.length > 1 || o.suite)) throw new Error('--db keeps one index: use it with one --dataset and one embedder');
      const pool = positiveInt('--pool', o.pool);
      // The bench code (and its devDependencies) is loaded here, not with the CLI: `loci ask` never needs it.
      const { loadDataset } = await import('../../bench/datasets.js');
      const { evaluateDataset, needsLociIndex, prepareIndex } = await import('../../bench/runner.js');
      const { formatReport } = await import('../../bench/report-table.js');
      const { formatSuite, runSuite, suiteSetNames } = await import('../../bench/suite.js');
      const sets = o.sets ? list(o.sets) : undefined;
      const unknownSets = (sets ?? []).filter((n) => !suiteSetNames().includes(n));
      if (unknownSets.length) throw new Error(`unknown set(s) ${unknownSets.join(', ')}: the dev suite has ${suiteSetNames().join(', ')}`);
      const limit = positiveInt('--limit', o.limit);
      const { compareRuns, formatComparisons, readBaseline, scoredSets } = await import('../../bench/paired.js');
      // Read before any run, so a wrong file fails in a second, not after an hour of benching.
      const baseline = o.baseline ? readBaseline(o.baseline) : null;
      const cutoff = ks.includes(5) ? 5 : ks[0]!;
      const paired = <T extends object>(report: T) => {
        const rows = compareRuns(scoredSets(report), baseline, cutoff);
        return { report: { ...report, paired: { k: cutoff, baseline: o.baseline ?? null, rows } }, text: formatComparisons(rows, cutoff, baseline !== null) };
      };
      const progress = o.json ? undefined : (m: string) => process.stderr.write(`${m}\n`);

      const outputs: unknown[] = [];
      for (const spec of specs) {
        const embedder = await createEmbedder(spec);
        try {
          if (o.suite) {
            const report = await runSuite(embedder, {
              dataDir: resolve(o.data),
              methods,
              ks,
              quick: o.quick,
              pool,
              sets,
              indexDir: o.keepIndex ? resolve(o.keepIndex) : undefined,
              onProgress: progress,
              onReport: o.json ? undefined : (r) => process.stderr.write(`${formatReport(r)}\n\n`),
            });
            const p = paired(report);
            if (o.json) outputs.push(p.report);
            else process.stdout.write(`${formatSuite(report)}\n\n${p.text}\n\n`);
          } else {
            const ds = loadDataset(o.dataset!, { format: o.format as DatasetFormat | undefined, corpus: o.corpus, limit, pool });
            const afterIndex = o.model ? modelPass(o.model, progress) : undefined;
            // One index (and one model pass) serves both the retrieval table and, with --answer, the answers.
            const prepared = o.answer || needsLociIndex(methods) ? await prepareIndex(ds.corpus, embedder, { dbFile: o.db, onProgress: progress, afterIndex }) : null;
            try {
              const report = await evaluateDataset(prepared, ds, o.dataset!, { methods, ks, onProgress: progress, embedderId: embedder.id });
              const p = paired(report);
              if (o.json) outputs.push(p.report);
              else process.stdout.write(`${formatReport(report)}\n\n${p.text}\n\n`);
              if (o.answer && prepared) {
                const { runAnswerBench, formatAnswerReport } = await import('../../bench/answers.js');
                const answers = await runAnswerBench(ds, { model: o.answer, k: Math.min(...ks), prepared, onProgress: progress });
                if (o.json) outputs.push(answers);
                else process.stdout.write(`${formatAnswerReport(answers)}\n\n`);
              }
            } finally {
              prepared?.close();
            }
          }
        } finally {
          await embedder.dispose?.();
        }
      }
      if (o.json) process.stdout.write(`${JSON.stringify(outputs.length === 1 ? outputs[0] : outputs, null, 2)}\n`);
    });
}

/** The model pass as the bench's after-index step; its report goes to stderr with the progress. */
function modelPass(model: string, progress?: (m: string) => void) {
  return async (db: Db, embedder: Embedder): Promise<void> => {
    const { refineAndRegraph } = await import('../../engine/extract/llm/refine.js');
    progress?.(`model pass with ${model}…`);
    const r = await refineAndRegraph(db, embedder, model, {
      onProgress: progress && ((p) => progress(`  model pass ${p.done}/${p.total}${p.current ? ` ${p.current}` : ''}`)),
    });
    progress?.(
      `model pass (${r.extractor}): ${r.refined} notes refined, ${r.cached} already done, ${r.failed.length} failed, ${r.calls} calls, ${r.tokens} tokens, ${r.seconds.toFixed(0)} s`,
    );
  };
}
