import { existsSync } from 'node:fs';
import { Option } from 'commander';
import { defaultDbPath } from '../engine/paths.js';
import type { LociEngine } from '../engine/engine.js';
import { termText } from './terminal.js';

export const dbOption = () => new Option('--db <file>', 'index database file').default(defaultDbPath());
export const jsonOption = () => new Option('--json', 'print machine-readable JSON');
export const embedderOption = () =>
  new Option('--embedder <spec>', "embedding model: 'glove' (built in), 'transformers:<model folder>' (see loci models list) or 'openai:http://host:port/v1#model'");

/** Commander turns `--no-wait` into `wait: false`. */
export const noWaitOption = () => new Option('--no-wait', 'when another Loci process is writing this index, stop with an error naming it instead of waiting');

export const modelOption = () =>
  new Option('--model <model>', 'language model: a .gguf file, an installed model id, or http(s)://server/v1#model (OpenAI-compatible)');

export function print(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${termText(human())}\n`);
}

/**
 * Opens the engine for one command and always closes it, so the database is never left open. A command
 * that only reads (`existing`) refuses a --db file that does not exist: opened, it would be created empty,
 * and a mistyped path would answer "nothing matches" instead of saying so.
 */
export async function withEngine<T>(
  opts: { db: string; embedder?: string; model?: string; oneOff?: boolean; existing?: boolean; wait?: boolean },
  fn: (engine: LociEngine) => Promise<T>,
): Promise<T> {
  if (opts.existing && !existsSync(opts.db)) {
    const db = opts.db === defaultDbPath() ? '' : ` --db ${opts.db}`;
    throw new Error(`There is no index at ${opts.db}: index a folder first (loci index <folder>${db}).`);
  }
  // Loaded on use: `loci --help` and other commands should not pay for the NLP models.
  const { LociEngine } = await import('../engine/engine.js');
  // A switch of embedder left unfinished is the app's (or serve's, or watch's) to go on with: a command
  // that runs for a second would only start it, and then wait for its current batch to stop.
  const engine = await LociEngine.open({ dbPath: opts.db, embedder: opts.embedder, model: opts.model, resumeSwitch: false, oneOff: opts.oneOff, waitForWriter: opts.wait });
  // On stderr, so --json output stays parseable: a fallback embedder, a refused folder or a re-extraction
  // after an upgrade must not pass silently.
  const tell = (message: string) => process.stderr.write(`${termText(`loci: ${message}`)}\n`);
  engine.events.warnings().forEach(tell);
  const stopTelling = engine.events.subscribe((e) => {
    if (e.type === 'warning') tell(e.message);
  });
  try {
    return await fn(engine);
  } finally {
    stopTelling();
    await engine.close();
  }
}
