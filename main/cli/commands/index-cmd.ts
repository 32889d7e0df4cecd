import path from 'node:path';
import type { Command } from 'commander';
import { dbOption, embedderOption, jsonOption, modelOption, noWaitOption, print, withEngine } from '../options.js';
import { progressReporter } from '../progress.js';
import type { IndexReport } from '../../engine/api.js';
import { termField } from '../terminal.js';

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('index a notes folder (only new or changed notes are processed)')
    .argument('<folder>', 'notes folder (Markdown and plain text)')
    .addOption(dbOption())
    .addOption(jsonOption())
    .addOption(embedderOption())
    .addOption(modelOption())
    .addOption(noWaitOption())
    .action(async (folder: string, opts: { db: string; json?: boolean; embedder?: string; model?: string; wait: boolean }) => {
      await withEngine(opts, async (engine) => {
        if (opts.embedder) await engine.settings.update({ embedder: opts.embedder });
        const progress = progressReporter(!opts.json);
        const controller = new AbortController();
        // Ctrl-C stops between notes: what was written is whole, and the next run resumes from there.
        const onSigint = () => controller.abort(new Error('interrupted'));
        process.once('SIGINT', onSigint);
        try {
          // One job: fast mode makes every note searchable, then a configured model rewrites them (cached per note).
          const report = await engine.library.index(path.resolve(folder), { onProgress: progress.onProgress, signal: controller.signal, keepPartial: true });
          progress.stop();
          print(!!opts.json, report, () => formatReport(report) + (report.model ? `\n${formatModelPass(report.model)}` : ''));
        } finally {
          process.off('SIGINT', onSigint);
          progress.stop();
        }
      });
    });
}

export function formatReport(r: IndexReport): string {
  const c = r.counts;
  const lines = [
    `${r.cancelled ? 'Cancelled' : 'Indexed'} ${termField(r.root)} in ${r.seconds.toFixed(2)} s — ${r.changed} changed, ${r.unchanged} unchanged, ${r.moved ? `${r.moved} moved, ` : ''}${r.removed} removed.`,
    `  documents ${c.documents}  chunks ${c.chunks}  FCIs ${c.fcis}  mind-map nodes ${c.mindMapNodes}`,
    `  entities ${c.entities}  triples ${c.triples}  document edges ${c.docEdges}  super nodes ${c.superNodes}  skipped ${c.skipped}`,
  ];
  for (const s of r.skipped) lines.push(`  skipped ${termField(s.relPath)}: ${s.reason} (${termField(s.detail)})`);
  for (const a of r.readAs) lines.push(`  read ${termField(a.relPath)} as ${a.encoding} (${termField(a.detail)})`);
  return lines.join('\n');
}

function formatModelPass(m: NonNullable<IndexReport['model']>): string {
  if (m.error) return `Model pass failed: ${termField(m.error)}`;
  return `Model pass (${m.extractor ?? 'model'}) in ${m.seconds.toFixed(1)} s — ${m.refined} notes refined${m.reusedPieces ? ` (${m.reusedPieces} unchanged pieces not sent again)` : ''}, ${m.cached} already done, ${m.failed} failed (see 'loci stats').`;
}
