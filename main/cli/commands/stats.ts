import type { Command } from 'commander';
import { dbOption, jsonOption, print, withEngine } from '../options.js';
import { termField } from '../terminal.js';

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('what the index holds')
    .addOption(dbOption())
    .addOption(jsonOption())
    .action(async (opts: { db: string; json?: boolean }) => {
      await withEngine({ ...opts, existing: true }, async (engine) => {
        const s = engine.views.stats();
        print(!!opts.json, s, () =>
          [
            `Index ${termField(s.dbPath)} (schema ${s.schemaVersion}), embedder ${s.embedder}`,
            `Folders: ${s.roots.map(termField).join(', ') || '(none)'}`,
            ...Object.entries(s.counts).map(([k, v]) => `  ${k.padEnd(14)} ${v}`),
            ...s.extractors.map((e) => `  extractor ${e.extractor}: ${e.documents} documents`),
            // ISO 639-1 codes, most notes first ('und': too short or no prose to tell).
            `Languages: ${Object.entries(s.languages).map(([code, n]) => `${code} ${n}`).join(', ') || '(no notes)'}`,
          ].join('\n'),
        );
      });
    });
}
