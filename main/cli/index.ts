import { Command } from 'commander';
import { registerCommands } from './commands/index.js';
import { termText } from './terminal.js';
import { diskWriteFailure } from '../engine/errors.js';

const program = new Command();
program
  .name('loci')
  .description('Loci: a local-first knowledge index over a folder of notes, with cited answers.')
  .version('0.1.0')
  .showHelpAfterError();

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  console.error(termText(`loci: ${diskWriteFailure(err) ?? (err instanceof Error ? err.message : String(err))}`));
  process.exitCode = 1;
}
