// A note of our own for the model-pass tests that keep replies and vectors, and the options that make
// the real tiny GGUF's replies count: it writes nonsense its notes do not support, so its facts are kept
// (minSupport 0) to have replies to keep.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../../../main/engine/embed/embedder.js';
import { indexFolder } from '../../../main/engine/index/run.js';
import { openDb, type Db } from '../../../main/engine/store/db.js';

/** Model-pass options: one try, every fact kept, short replies. */
export const KEEP_EVERY_FACT = { maxTries: 1, minSupport: 0, maxTokens: { piece: 400 } };

/** A note with three sections, each longer than half a piece (one piece each), then `lastLine`. */
export function logbook(lastLine: string): string {
  const section = (name: string, place: string) =>
    `## ${name}\n\n` +
    Array.from({ length: 9 }, (_, i) => `On day ${i + 1} the crew checked the ${place} and wrote down what the tide had left there.`).join('\n') +
    '\n';
  return `# Harbour logbook\n\n${section('North pier', 'north pier')}\n${section('Boathouse', 'boathouse')}\n${section('Lighthouse', 'lighthouse lamp')}${lastLine}\n`;
}

/** A fresh folder holding the logbook (its lamp cleaned in March), indexed into a fresh index file. */
export async function indexedLogbook(prefix: string, embedder: Embedder): Promise<{ dir: string; notes: string; db: Db }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const notes = join(dir, 'notes');
  mkdirSync(notes);
  writeFileSync(join(notes, 'logbook.md'), logbook('The lamp was cleaned in March.'));
  const db = openDb(join(dir, 'index.db'));
  await indexFolder(db, embedder, notes);
  return { dir, notes, db };
}
