import type { Command } from 'commander';
import { dbOption, embedderOption, jsonOption, modelOption, print, withEngine } from '../options.js';
import { progressReporter } from '../progress.js';
import type { IndexReport } from '../../engine/api.js';
import type { RefineReport } from '../../engine/extract/llm/refine.js';
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
    .action(async (folder: string, opts: { db: string; json?: boolean; embedder?: string; model?: string }) => {
      await withEngine(opts, async (engine) => {
        if (opts.embedder) engine.updateSettings({ embedder: opts.embedder });
        const progress = progressReporter(!opts.json);
        const controller = new AbortController();
        // Ctrl-C stops between notes: what was written is whole, and the next run resumes from there.
        const onSigint = () => controller.abort(new Error('interrupted'));
        process.once('SIGINT', onSigint);
        try {
          const report = await engine.index(folder, { onProgress: progress.onProgress, signal: controller.signal });
          // Fast mode made every note searchable; with a model, it now rewrites them (cached per note).
          const refined = await engine.refine({ onProgress: progress.onProgress, signal: controller.signal });
          progress.stop();
          const final = refined ? { ...report, counts: engine.stats().counts, model: refined } : report;
          print(!!opts.json, final, () => formatReport(final) + (refined ? `\n${formatRefine(refined)}` : ''));
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
    `Indexed ${termField(r.root)} in ${r.seconds.toFixed(2)} s — ${r.changed} changed, ${r.unchanged} unchanged, ${r.removed} removed.`,
    `  documents ${c.documents}  chunks ${c.chunks}  FCIs ${c.fcis}  mind-map nodes ${c.mindMapNodes}`,
    `  entities ${c.entities}  triples ${c.triples}  document edges ${c.docEdges}  super nodes ${c.superNodes}  skipped ${c.skipped}`,
  ];
  for (const s of r.skipped) lines.push(`  skipped ${termField(s.relPath)}: ${s.reason} (${termField(s.detail)})`);
  return lines.join('\n');
}

function formatRefine(r: RefineReport): string {
  const lines = [
    `Model pass (${r.extractor}) in ${r.seconds.toFixed(1)} s — ${r.refined} notes refined, ${r.cached} already done, ${r.stale} changed meanwhile; ${r.calls} calls, ${r.tokens} tokens.`,
  ];
  if (r.outputFailures) lines.push(`  ${r.outputFailures} model replies never validated (the rest of those notes was kept)`);
  for (const f of r.failed) lines.push(`  failed ${termField(f.relPath)}: ${termField(f.error)}`);
  return lines.join('\n');
}
