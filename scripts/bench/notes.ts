// The notes a bench script indexes: a copy of a notes folder, or the first n CRUD-RAG news articles
// written as one note each (named by id), in a temporary folder of the script's own.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNews } from '../../main/bench/scale.js';

const NEWS = join(import.meta.dirname, '../../../shared/data/crud/news.jsonl.gz');

/** Fills `notes` (created here) from `--news <n>` when given, else from the folder. */
export async function benchNotes(notes: string, from: { news?: string; folder?: string }): Promise<void> {
  if (from.news) {
    mkdirSync(notes);
    for (const a of await readNews(NEWS, Number(from.news))) writeFileSync(join(notes, `${a.id}.md`), a.text);
  } else cpSync(from.folder!, notes, { recursive: true });
}
