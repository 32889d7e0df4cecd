// The notes folder the e2e flows index: a fresh copy of the bundled sample notes, so the tests can
// edit it (to see the watcher) without touching the repo.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SAMPLE_NOTES = process.env.LOCI_E2E_NOTES ?? path.resolve(import.meta.dirname, '../../resources/sample-notes');

export function copySampleNotes(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-notes-'));
  cpSync(SAMPLE_NOTES, dir, { recursive: true });
  return dir;
}

/** A question the notes can answer: built from a real heading of the first Markdown note. */
export function questionFor(dir: string): { question: string; heading: string } {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).sort();
  for (const f of files) {
    const headings = readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => /^#{2,3}\s+\w/.test(l))
      .map((l) => l.replace(/^#+\s+/, '').trim());
    if (headings[0]) return { question: `What do my notes say about ${headings[0]}?`, heading: headings[0] };
  }
  throw new Error(`no Markdown heading under ${dir}`);
}

/**
 * A work folder holding a copy of the sample notes (`notes`) indexed by the bundled CLI into `db`, for a
 * spec that starts its own server on an existing library. `indexed`: the notes the run wrote.
 */
export function indexedSampleLibrary(prefix: string): { work: string; notes: string; db: string; indexed: number } {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  const notes = path.join(work, 'notes');
  cpSync(SAMPLE_NOTES, notes, { recursive: true });
  const db = path.join(work, 'index.db');
  const index = spawnSync(process.execPath, ['out/engine/loci.js', 'index', notes, '--db', db, '--json'], { encoding: 'utf8' });
  if (index.status !== 0) throw new Error(`loci index failed (${index.status}): ${index.stderr}`);
  return { work, notes, db, indexed: (JSON.parse(index.stdout) as { changed: number }).changed };
}
