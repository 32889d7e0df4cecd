import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { findCatalogueEntry, loadCatalogue } from '../../engine/llm/models/catalogue.js';
import { importModel } from '../../engine/llm/models/import.js';
import { listInstalled } from '../../engine/llm/models/installed.js';
import { modelsDir } from '../../engine/llm/models/models-dir.js';
import { pullModel } from '../../engine/llm/models/pull.js';
import { transformersSpec } from '../../engine/embed/registry.js';
import { dbOption, print } from '../options.js';
import { modelsInSettings, removeInstalledModel } from '../../engine/llm/models/remove.js';
import { openDb } from '../../engine/store/db.js';
import { readSettings } from '../../engine/settings.js';
import { existsSync } from 'node:fs';
import { termField } from '../terminal.js';

const mb = (n: number | null | undefined) => (n ? `${(n / 1e6).toFixed(1)} MB` : '');

export function registerModels(program: Command): void {
  const models = program.command('models').description('list, download and import language and embedding models');

  models
    .command('list')
    .description('recommended models (catalogue) and what is installed')
    .option('--dir <folder>', 'models folder', modelsDir())
    .option('--json', 'print machine-readable JSON')
    .action((opts: { dir: string; json?: boolean }) => {
      const entries = loadCatalogue();
      const installed = listInstalled(opts.dir, entries);
      const catalogue = entries.map((m) => {
        const copy = installed.find((i) => i.catalogueId === m.id);
        return { ...m, installed: copy !== undefined, ...(copy?.embedder ? { embedder: copy.embedder } : {}) };
      });
      const extra = installed.filter((i) => i.catalogueId === null && i.kind === 'gguf');
      print(!!opts.json, { dir: opts.dir, catalogue, installed }, () =>
        [
          `Models folder: ${opts.dir}`,
          ...catalogue.map(
            (m) =>
              `${m.installed ? '✓' : ' '} ${m.id.padEnd(32)} ${m.kind.padEnd(15)} ${m.role.padEnd(9)} ${(mb(m.sizeBytes) || m.sizeLabel || '').padEnd(9)} ${m.licence.padEnd(11)} ` +
              `sha256 ${m.sha256 ? (m.verified ? 'verified' : 'listed') : 'unknown'}${m.embedder ? `\n    use it with --embedder ${termField(m.embedder)}` : ''}`,
          ),
          ...extra.map((i) => `✓ ${termField(i.id).padEnd(32)} gguf (imported)  ${mb(i.sizeBytes)}`),
        ].join('\n'),
      );
    });

  models
    .command('pull')
    .description('download a catalogue model (resumes an interrupted download, checks the sha256)')
    .argument('<id>', 'catalogue id (see loci models list)')
    .option('--dir <folder>', 'models folder', modelsDir())
    .option('--json', 'print machine-readable JSON')
    .action(async (id: string, opts: { dir: string; json?: boolean }) => {
      const entry = findCatalogueEntry(id);
      if (!entry) throw new Error(`No model ${id} in the catalogue (loci models list).`);
      const bar = !opts.json && process.stderr.isTTY ? new cliProgress.SingleBar({ format: '{file} [{bar}] {percentage}% | {value}/{total} bytes | ETA {eta_formatted}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
      let file = '';
      const controller = new AbortController();
      const onSigint = () => controller.abort(new Error('interrupted: run the same command again to resume'));
      process.once('SIGINT', onSigint);
      try {
        const result = await pullModel(entry, opts.dir, {
          signal: controller.signal,
          onProgress: (p) => {
            if (!bar) return;
            if (p.file !== file) {
              if (file) bar.stop();
              file = p.file;
              bar.start(p.total ?? 0, p.received, { file: p.file });
            }
            if (p.total) bar.setTotal(p.total);
            bar.update(p.received);
          },
        });
        bar?.stop();
        print(!!opts.json, result, () =>
          [
            `Installed ${entry.id} → ${result.path}`,
            ...result.files.map((f) => `  ${f.path}  sha256 ${f.sha256} ${f.verified ? '(matches the catalogue)' : '(no catalogue checksum to compare)'}${f.resumed ? ' — resumed' : ''}`),
            entry.role === 'embedding' ? `  use it with --embedder ${termField(transformersSpec(result.path))} (or under Settings & models in the app)` : `  use it with --model ${termField(entry.id)}`,
          ].join('\n'),
        );
      } finally {
        bar?.stop();
        process.off('SIGINT', onSigint);
      }
    });

  models
    .command('remove')
    .description('delete an installed model from the models folder (refused while the index at --db uses it)')
    .argument('<id>', 'installed model id (see loci models list)')
    .option('--dir <folder>', 'models folder', modelsDir())
    .addOption(dbOption())
    .option('--json', 'print machine-readable JSON')
    .action((id: string, opts: { dir: string; db: string; json?: boolean }) => {
      // The index's settings say which models are in use (an index not yet made uses none).
      let settings: Record<string, unknown> = {};
      if (existsSync(opts.db)) {
        const db = openDb(opts.db, { readonly: true });
        try {
          settings = readSettings(db);
        } finally {
          db.close();
        }
      }
      const r = removeInstalledModel(id, modelsInSettings(settings), opts.dir);
      print(!!opts.json, r, () => `Removed ${termField(r.id)} (${termField(r.file)}): ${mb(r.freedBytes)} freed`);
    });

  models
    .command('import')
    .description('copy a GGUF file into the models folder')
    .argument('<file>', 'a .gguf model file')
    .option('--dir <folder>', 'models folder', modelsDir())
    .option('--json', 'print machine-readable JSON')
    .action(async (file: string, opts: { dir: string; json?: boolean }) => {
      const r = await importModel(file, opts.dir);
      print(!!opts.json, r, () => `Imported ${termField(r.id)} → ${termField(r.path)}\n  sha256 ${r.sha256}\n  use it with --model ${termField(r.id)}`);
    });
}
