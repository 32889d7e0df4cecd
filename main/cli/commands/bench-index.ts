import type { Command } from 'commander';
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jsonOption, print } from '../options.js';

const DEFAULT_FOLDER = resolve(import.meta.dirname, '../../../../shared/data/notes/silverbullet_docs');

/** `npm run bench:index`: full index, no-op re-index and one-note re-index of a real notes folder. */
export function registerBenchIndex(program: Command): void {
  program
    .command('bench-index')
    .description('measure indexing: full run, unchanged re-run, one note changed; peak memory')
    .argument('[folder]', 'notes folder (default: ../shared/data/notes/silverbullet_docs)', DEFAULT_FOLDER)
    .addOption(jsonOption())
    .action(async (folder: string, opts: { json?: boolean }) => {
      if (!existsSync(folder)) throw new Error(`No notes folder at ${folder}`);
      const { LociEngine } = await import('../../engine/engine.js');
      const { scanFolder } = await import('../../engine/ingest/scan.js');
      const work = await mkdtemp(join(tmpdir(), 'loci-bench-index-'));
      try {
        // A copy, so changing a note never touches the source folder.
        const notes = join(work, 'notes');
        await cp(folder, notes, { recursive: true });
        const engine = await LociEngine.open({ dbPath: join(work, 'index.db') });
        const full = await engine.index(notes);
        const noop = await engine.index(notes);
        const { files } = await scanFolder(notes);
        const victim = files[Math.floor(files.length / 2)];
        await appendFile(victim.absPath, '\n\nAn added paragraph: the benchmark changed this note to time a one-note re-index.\n');
        const one = await engine.index(notes);
        await engine.close();
        const result = {
          folder,
          documents: full.counts.documents,
          counts: full.counts,
          fullSeconds: full.seconds,
          docsPerSecond: full.counts.documents / full.seconds,
          unchangedSeconds: noop.seconds,
          oneNoteSeconds: one.seconds,
          oneNoteChanged: one.changed,
          peakRssMb: process.resourceUsage().maxRSS / 1024,
        };
        print(!!opts.json, result, () =>
          [
            `Folder: ${folder} (${result.documents} notes)`,
            `full index        ${result.fullSeconds.toFixed(2)} s  (${result.docsPerSecond.toFixed(0)} documents/s)`,
            `unchanged re-run  ${result.unchangedSeconds.toFixed(3)} s`,
            `one note changed  ${result.oneNoteSeconds.toFixed(3)} s  (${result.oneNoteChanged} re-done)`,
            `peak memory (RSS) ${result.peakRssMb.toFixed(0)} MB`,
            `counts: ${JSON.stringify(result.counts)}`,
          ].join('\n'),
        );
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });
}
