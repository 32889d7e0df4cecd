import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { embedMissing } from '../../main/engine/embed/embed-missing.js';
import { refineIndex } from '../../main/engine/extract/llm/refine.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { removeDocumentsUnder } from '../../main/engine/store/library.js';
import { forgetReleasedVectors } from '../../main/engine/store/released-vectors.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { tinyModelPath } from './helpers/tiny-model.js';
import { indexedLogbook, KEEP_EVERY_FACT, logbook } from './helpers/logbook.js';
import { embeddingsServer } from '../support/embeddings-server.js';

// With an embedder outside the indexing workers (an embeddings server of the test's own, which records
// every text it is sent), a text a note held before is not sent again: not the facts of a model reply
// reused after an edit, not the texts of a note brought back in another library folder. The real tiny
// GGUF writes the facts (nonsense, kept with minSupport 0); only which texts are embedded is checked.
// An entity name no note mentions any more is released too, library-wide (a name belongs to no one
// note), and not embedded again when a note mentions it.
const OPTS = KEEP_EVERY_FACT;

describe('released vectors', { timeout: 300_000 }, () => {
  let llm: LocalLlamaProvider;
  let server: Awaited<ReturnType<typeof embeddingsServer>>;
  let embedder: Embedder;
  let dir: string;
  let notes: string;
  let db: Db;
  const facts = () => new Set(db.prepare("SELECT text FROM fcis WHERE extractor <> 'fast'").pluck().all() as string[]);
  const noteTexts = () =>
    new Set([
      ...(db.prepare('SELECT text FROM fcis').pluck().all() as string[]),
      ...(db.prepare('SELECT path_text FROM mm_nodes').pluck().all() as string[]),
      ...(db.prepare('SELECT name FROM entities').pluck().all() as string[]),
    ]);
  const refine = async () => {
    await refineIndex(db, embedder, llm, OPTS);
    await embedMissing(db, embedder);
  };

  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), sequences: 2 });
    server = await embeddingsServer();
    embedder = await createEmbedder(server.spec);
    ({ dir, notes, db } = await indexedLogbook('loci-released-vectors-', embedder));
    await refine();
  });
  afterAll(async () => {
    db?.close();
    await llm?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the vectors of the facts a reused reply writes again after an edit', async () => {
    const before = facts();
    expect(before.size).toBeGreaterThan(3);
    server.texts.length = 0;
    writeFileSync(join(notes, 'logbook.md'), logbook('The lamp was cleaned in April, a month late.'));
    await indexFolder(db, embedder, notes);
    await refine();
    const again = [...facts()].filter((t) => before.has(t));
    // The unchanged pieces' facts are written again, and none of them is embedded again.
    expect(again.length).toBeGreaterThan(0);
    expect(server.texts.filter((t) => again.includes(t))).toEqual([]);
    // Taken back, they are no longer released.
    const released = db.prepare('SELECT text FROM released_vectors').pluck().all() as string[];
    expect(released.filter((t) => again.includes(t))).toEqual([]);
  });

  it('keeps every vector of a note brought back in another library folder, and forgets them with the folder', async () => {
    const held = noteTexts();
    const text = readFileSync(join(notes, 'logbook.md'), 'utf8');
    unlinkSync(join(notes, 'logbook.md'));
    await indexFolder(db, embedder, notes);
    expect(db.prepare('SELECT count(*) FROM released_vectors WHERE root = ?').pluck().get(notes)).toBeGreaterThan(held.size / 3);
    // The note's names went with it, their vectors kept for every folder.
    expect(db.prepare('SELECT count(*) FROM entities').pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM released_vectors WHERE root = ''").pluck().get()).toBeGreaterThan(3);

    server.texts.length = 0;
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'logbook.md'), text);
    await indexFolder(db, embedder, other);
    await refine();
    expect(server.texts.filter((t) => held.has(t))).toEqual([]);
    expect(noteTexts()).toEqual(held);

    // What the first folder released goes with it.
    expect(db.prepare('SELECT count(*) FROM released_vectors WHERE root = ?').pluck().get(notes)).toBeGreaterThan(0);
    removeDocumentsUnder(db, notes);
    expect(db.prepare('SELECT count(*) FROM released_vectors WHERE root = ?').pluck().get(notes)).toBe(0);
  });

  it('forgets vectors released longer ago than replies are kept', () => {
    const released = db.prepare('SELECT count(*) FROM released_vectors').pluck().get() as number;
    expect(released).toBeGreaterThan(0);
    db.prepare('UPDATE released_vectors SET released_at = released_at - 31 * 86400 WHERE rowid IN (SELECT rowid FROM released_vectors LIMIT 1)').run();
    expect(forgetReleasedVectors(db, { days: 30 })).toBe(1);
    expect(db.prepare('SELECT count(*) FROM released_vectors').pluck().get()).toBe(released - 1);
  });

  it('keeps none of the built-in embedder’s vectors, which are made from the words at once', async () => {
    const glove = await createStaticEmbedder();
    const own = join(dir, 'glove');
    mkdirSync(own);
    writeFileSync(join(own, 'logbook.md'), logbook('The lamp was cleaned in May.'));
    const gloveDb = openDb(join(dir, 'glove.db'));
    try {
      await indexFolder(gloveDb, glove, own);
      writeFileSync(join(own, 'logbook.md'), logbook('The lamp was cleaned in June.'));
      await indexFolder(gloveDb, glove, own);
      unlinkSync(join(own, 'logbook.md'));
      await indexFolder(gloveDb, glove, own);
      expect(gloveDb.prepare('SELECT count(*) FROM released_vectors').pluck().get()).toBe(0);
    } finally {
      gloveDb.close();
    }
  });
});
