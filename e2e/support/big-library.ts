// Builds the ~2,000-note folder the scale journeys index: the SilverBullet and Foam docs and a slice of
// the CRUD-RAG news articles from ../shared/data, plus the bundled sample notes, written to a temp dir
// (never into the repo). Each article becomes one Markdown note titled by its first clause, grouped in
// folders of 100 so the folder clusters in the graph mean something.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SAMPLE_NOTES } from './notes.js';

const DATA = path.resolve(import.meta.dirname, '../../../shared/data');
const NOTES = ['silverbullet_docs', 'foam_docs'].map((f) => path.join(DATA, 'notes', f));
const NEWS = path.join(DATA, 'crud', 'news.jsonl.gz');

/** Why the big library cannot be built here, or null when it can. */
export function bigLibraryMissing(): string | null {
  for (const p of [...NOTES, NEWS]) if (!existsSync(p)) return `${p} is not on this machine`;
  return null;
}

export interface BigLibrary {
  dir: string;
  notes: number;
  articles: number;
}

export function buildBigLibrary(target = 2000): BigLibrary {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-big-'));
  for (const src of NOTES) cpSync(src, path.join(dir, path.basename(src)), { recursive: true, filter: (p) => !/\.(jsonl\.gz|json)$/.test(p) });
  cpSync(SAMPLE_NOTES, path.join(dir, 'sample-notes'), { recursive: true });
  const already = countNotes(dir);
  const written = writeNews(dir, Math.max(0, target - already), 0);
  return { dir, notes: already + written, articles: written };
}

/** A folder of news notes only (skipping the first `skip` usable articles): a second folder to add, cancel or remove. */
export function buildNewsFolder(count: number, skip: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-news-'));
  writeNews(dir, count, skip);
  return dir;
}

function writeNews(dir: string, articles: number, skip: number): number {
  const lines = gunzipSync(readFileSync(NEWS)).toString('utf8').split('\n');
  let written = 0;
  let seen = 0;
  for (const line of lines) {
    if (written >= articles) break;
    if (!line.trim()) continue;
    const { id, text } = JSON.parse(line) as { id: number; text: string };
    const body = text.replace(/^[\d-]+ [\d:]+，正文：/, '').trim();
    if (body.length < 80 || seen++ < skip) continue;
    // News leads open with "<outlet> <date>消息，"; the clause after it names the story.
    const lead = body.replace(/^[^，。]{0,24}消息，/, '');
    const title = (lead.split(/[，。！？]/)[0] || `新闻 ${id}`).slice(0, 40);
    const folder = path.join(dir, 'news', `batch-${String(Math.floor(written / 100)).padStart(2, '0')}`);
    mkdirSync(folder, { recursive: true });
    // Paragraphs at sentence ends, so the note has structure to chunk and map.
    const paragraphs = body.replace(/([。！？])(?=[^」”])/g, '$1\n\n');
    writeFileSync(path.join(folder, `news-${id}.md`), `# ${title}\n\n${paragraphs}\n`);
    written++;
  }
  return written;
}

function countNotes(dir: string): number {
  let n = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(md|markdown|txt)$/i.test(e.name)) n++;
    }
  };
  walk(dir);
  return n;
}
