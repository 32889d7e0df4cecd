// The tables of docs/benchmarks.md from what `loci bench --json` printed: a suite's reports, a dataset's,
// an answer report (`--answer`), or a list of them (one per embedder). The same tables `loci bench` prints,
// as Markdown, under the command that produced them, so a figure in the docs always says how to get it again.
//   npx loci bench --suite dev --k 5 --json > run.json
//   npx tsx scripts/bench/to-markdown.ts run.json --command "npx loci bench --suite dev --k 5" >> docs/benchmarks.md
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatAnswerReport, type AnswerBenchReport } from '../../main/bench/answers.js';
import { formatReport } from '../../main/bench/report-table.js';
import type { BenchReport } from '../../main/bench/runner.js';
import { formatSuite, type SuiteReport } from '../../main/bench/suite.js';

type Report = SuiteReport | BenchReport | AnswerBenchReport;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { command: { type: 'string' } } });
if (positionals.length !== 1) {
  console.error('usage: npx tsx scripts/bench/to-markdown.ts <loci bench --json output, or - for stdin> [--command "<the command that made it>"]');
  process.exit(2);
}
try {
  const json = JSON.parse(readFileSync(positionals[0] === '-' ? 0 : positionals[0]!, 'utf8')) as Report | Report[];
  const out: string[] = [];
  if (values.command) out.push('```sh', values.command, '```', '');
  for (const r of Array.isArray(json) ? json : [json]) {
    const [title, ...rest] = textOf(r).split('\n');
    while (rest[0] === '') rest.shift();
    out.push(`#### ${title}`, '', ...blankBeforeTables(rest), '');
  }
  process.stdout.write(out.join('\n'));
} catch (err) {
  console.error(`to-markdown: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

function textOf(r: Report): string {
  if ('suite' in r) return formatSuite(r);
  if ('dataset' in r) return formatReport(r);
  if ('model' in r) return formatAnswerReport(r);
  throw new Error('not a `loci bench --json` report: expected a suite, a dataset or an answer report');
}

/** A Markdown table needs a blank line between it and the caption above it. */
function blankBeforeTables(lines: string[]): string[] {
  return lines.flatMap((line, i) => (line.startsWith('|') && i > 0 && lines[i - 1]!.trim() !== '' && !lines[i - 1]!.startsWith('|') ? ['', line] : [line]));
}
