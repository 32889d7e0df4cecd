// `loci check [--repair]`: the index's invariants, what a repair did, and a non-zero exit while any fails.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { dbOption, jsonOption, noWaitOption, print, withEngine } from '../options.js';
import { termField, termText } from '../terminal.js';
import type { CheckRun } from '../../engine/check/run-check.js';
import type { IndexReport } from '../../engine/api.js';

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description("check the index: SQLite integrity, foreign keys, full-text index, each note's rows from one run, vectors; exit 1 while a problem remains")
    .addOption(dbOption())
    .addOption(jsonOption())
    .option('--repair', 'mend what can be mended (notes whose rows cannot be trusted are written again by the next index run; an index that cannot be mended is rebuilt from the notes)')
    .addOption(noWaitOption())
    .action(async (opts: { db: string; json?: boolean; repair?: boolean; wait: boolean }) => {
      if (!existsSync(opts.db)) throw new Error(`There is no index at ${opts.db}.`);
      const { runCheck } = await import('../../engine/check/run-check.js');
      const { describeHolder } = await import('../../engine/errors.js');
      const run = await runCheck(opts.db, {
        repair: opts.repair,
        wait: opts.wait,
        onWait: (h) => process.stderr.write(termText(`loci: ${describeHolder(h)} is ${h.activity || 'writing to this index'} — waiting for it to finish…\n`)),
      });
      // A rebuilt index is filled again from its folders' notes, as `loci index` would.
      const reindexed: IndexReport[] = [];
      if (run.rebuilt?.folders.length) {
        await withEngine({ db: opts.db, wait: opts.wait }, async (engine) => {
          for (const root of run.rebuilt!.folders) reindexed.push(await engine.library.index(root));
        });
      }
      print(!!opts.json, { ...run, reindexed }, () => formatCheck(run, reindexed));
      if (!run.ok) process.exitCode = 1;
    });
}

function formatCheck(run: CheckRun, reindexed: IndexReport[]): string {
  const lines = [`Index ${termField(run.dbPath)}: ${run.ok ? 'ok' : 'problems found'}`];
  for (const f of run.findings) {
    lines.push(`  ${f.ok ? '✓' : '✗'} ${termField(f.message)}`);
    if (f.repaired) lines.push(`      repaired: ${termField(f.repaired)}`);
  }
  for (const n of run.notes) lines.push(`  · ${termField(n)}`);
  for (const r of reindexed) lines.push(`  indexed ${termField(r.root)} again: ${r.counts.documents} notes`);
  if (run.reindex > 0) lines.push(`Run 'loci index <folder>' to write the ${run.reindex} marked notes again.`);
  if (!run.ok) lines.push(run.findings.some((f) => f.repaired) ? 'Some problems remain after the repair.' : "Run 'loci check --repair' to mend what can be mended.");
  return lines.join('\n');
}
