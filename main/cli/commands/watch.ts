import path from 'node:path';
import type { Command } from 'commander';
import { dbOption, embedderOption, jsonOption, noWaitOption } from '../options.js';
import { formatReport } from './index-cmd.js';
import { termField, termText } from '../terminal.js';

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('index a folder, then keep the index current as notes change (Ctrl-C to stop)')
    .argument('<folder>')
    .addOption(dbOption())
    .addOption(jsonOption())
    .addOption(embedderOption())
    .addOption(noWaitOption())
    .action(async (folder: string, opts: { db: string; json?: boolean; embedder?: string; wait: boolean }) => {
      const { LociEngine } = await import('../../engine/engine.js');
      const engine = await LociEngine.open({ dbPath: opts.db, embedder: opts.embedder, waitForWriter: opts.wait });
      // Waiting for another Loci process, a stale lock taken over: on stderr, so --json stays parseable.
      engine.events.subscribe((e) => {
        if (e.type === 'warning') console.error(termText(`loci: ${e.message}`));
      });
      const report = (r: Parameters<typeof formatReport>[0]) =>
        console.log(opts.json ? JSON.stringify({ event: 'indexed', ...r }) : termText(formatReport(r)));
      // A folder on the command line is relative to where the command runs; the engine takes absolute paths.
      folder = path.resolve(folder);
      report(await engine.library.index(folder));
      const watch = engine.library.watch(folder, { onReport: report, onError: (e) => console.error(`loci watch: ${termField(e.message)}`) });
      if (!opts.json) console.log(`Watching ${termField(folder)} — Ctrl-C to stop.`);
      await new Promise<void>((done) => process.once('SIGINT', done));
      await watch.close();
      await engine.close();
    });
}
