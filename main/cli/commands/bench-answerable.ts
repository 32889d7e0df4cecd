import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Observation } from '../../bench/answerable.js';
import { createEmbedder } from '../../engine/embed/registry.js';

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

interface Options {
  data: string;
  sets?: string;
  quick?: boolean;
  pool?: string;
  embedder: string;
  method: string;
  save?: string;
  from?: string;
  json?: boolean;
}

/** `loci bench-answerable`: precision and recall of ask's "do the notes answer this?" on the dev sets and on copies without their gold notes. */
export function registerBenchAnswerable(program: Command): void {
  program
    .command('bench-answerable')
    .description("Measure ask's answerable decision: every dev set asked over its corpus and over the corpus without the gold notes; weights fitted, precision/recall per set and held out by kind")
    .option('--data <dir>', 'shared data folder the dev sets are read from', '../shared/data')
    .option('--sets <list>', 'only these dev sets (comma-separated names)')
    .option('--quick', 'fewer questions and a 1,000-article news pool')
    .option('--pool <n>', 'news articles in the pool, gold ones included', '1000')
    .option('--embedder <spec>', 'embedder', 'glove')
    .option('--method <method>', 'retrieval method ask uses', 'loci')
    .option('--save <file>', 'write the per-question signals here (refit later with --from)')
    .option('--from <file>', 'read the per-question signals from a --save file instead of indexing and asking')
    .option('--json', 'print the report as JSON')
    .action(async (o: Options) => {
      // The bench code loads only when a bench runs.
      const { formatAnswerableReport, observe, report } = await import('../../bench/answerable.js');
      const { suiteSetNames } = await import('../../bench/suite.js');
      const { LOCI_METHODS } = await import('../../bench/names.js');
      if (!(LOCI_METHODS as string[]).includes(o.method)) throw new Error(`--method must be one of ${LOCI_METHODS.join(', ')}`);
      const sets = o.sets ? list(o.sets) : undefined;
      const unknown = (sets ?? []).filter((n) => !suiteSetNames().includes(n));
      if (unknown.length) throw new Error(`unknown set(s) ${unknown.join(', ')}: the dev suite has ${suiteSetNames().join(', ')}`);
      const pool = Number(o.pool);
      if (!Number.isInteger(pool) || pool <= 0) throw new Error(`--pool takes a positive integer, got "${o.pool}"`);
      let observed: { observations: Observation[]; skipped: { name: string; reason: string }[]; embedder: string };
      if (o.from) {
        observed = JSON.parse(readFileSync(resolve(o.from), 'utf8')) as typeof observed;
      } else {
        const embedder = await createEmbedder(o.embedder);
        try {
          const progress = o.json ? undefined : (m: string) => process.stderr.write(`${m}\n`);
          observed = { ...(await observe(embedder, { dataDir: resolve(o.data), quick: o.quick, pool, sets, method: o.method, onProgress: progress })), embedder: embedder.id };
        } finally {
          await embedder.dispose?.();
        }
        if (o.save) writeFileSync(resolve(o.save), JSON.stringify(observed));
      }
      const r = report(observed.embedder, o.method, observed.observations, observed.skipped);
      process.stdout.write(o.json ? `${JSON.stringify(r, null, 2)}\n` : `${formatAnswerableReport(r)}\n`);
    });
}
