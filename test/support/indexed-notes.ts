import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { IndexCache } from '../../main/engine/retrieve/index-cache.js';
import type { RetrievalContext, Retriever } from '../../main/engine/retrieve/retriever.js';

export interface IndexedNotes {
  dir: string;
  db: Db;
  ctx: RetrievalContext;
  close(): void;
}

/**
 * Writes the notes (path → text, folders made as needed) to a fresh temporary folder and indexes it, in fast mode, into an
 * in-memory index, with the built-in embedder unless another is given.
 */
export async function indexNotes(prefix: string, notes: Record<string, string>, embedderArg?: Embedder): Promise<IndexedNotes> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(notes)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const db = openDb(':memory:');
  const embedder = embedderArg ?? (await createStaticEmbedder());
  await indexFolder(db, embedder, dir);
  return {
    dir,
    db,
    ctx: { db, embedder, cache: new IndexCache(db, embedder) },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The note titles of the contexts a retriever returns for the question, asked cold (no analysis kept from an earlier question). */
export async function coldTitles(ctx: RetrievalContext, retriever: Retriever, question: string, k: number): Promise<string[]> {
  ctx.cache.forgetQuestions();
  return (await retriever(ctx, question, k)).contexts.map((c) => c.docTitle);
}
