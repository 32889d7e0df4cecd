import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { refineIndex } from '../../main/engine/extract/llm/refine.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import type { Db } from '../../main/engine/store/db.js';
import { tinyModelPath } from './helpers/tiny-model.js';
import { indexedLogbook, KEEP_EVERY_FACT, logbook } from './helpers/logbook.js';
import { counting } from './helpers/counting.js';

// The real tiny GGUF writes nonsense its notes do not support: its facts are kept (minSupport 0) so
// there are replies to keep. Only which pieces go to the model, and where their facts land, is checked.
const OPTS = KEEP_EVERY_FACT;

const factsOf = (db: Db) => db.prepare('SELECT text, line_from AS lineFrom, line_to AS lineTo FROM fcis ORDER BY line_from, id').all() as { text: string; lineFrom: number; lineTo: number }[];

describe('the model pass keeps each piece’s reply', { timeout: 300_000 }, () => {
  let llm: LocalLlamaProvider;
  let embedder: Embedder;
  let dir: string;
  let notes: string;
  let db: Db;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), sequences: 2 });
    embedder = await createStaticEmbedder();
    ({ dir, notes, db } = await indexedLogbook('loci-kept-', embedder));
  });
  afterAll(async () => {
    db?.close();
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Indexes the folder again, then runs the model pass, counting its model calls afresh. */
  const reindexAndRefine = async (folder: string) => {
    await indexFolder(db, embedder, folder);
    const model = counting(llm);
    const report = await refineIndex(db, embedder, model, OPTS);
    return { report, calls: model.counter.calls };
  };

  it('sends only the edited piece of a note to the model again', async () => {
    const model = counting(llm);
    const first = await refineIndex(db, embedder, model, OPTS);
    expect([first.refined, first.reusedPieces]).toEqual([1, 0]);
    const pieces = db.prepare('SELECT count(*) FROM kept_replies').pluck().get() as number;
    expect(pieces).toBeGreaterThanOrEqual(3);
    const callsFirst = model.counter.calls;

    writeFileSync(join(notes, 'logbook.md'), logbook('The lamp was cleaned in April, a month late.'));
    await indexFolder(db, embedder, notes);
    const second = await refineIndex(db, embedder, model, OPTS);
    expect([second.refined, second.reusedPieces]).toEqual([1, pieces - 1]);
    // The edited piece's calls only (one, or two when its free text does not parse).
    expect(model.counter.calls - callsFirst).toBeGreaterThan(0);
    expect(model.counter.calls - callsFirst).toBeLessThanOrEqual(2);
    expect(db.prepare('SELECT count(*) FROM kept_replies').pluck().get()).toBe(pieces);
  });

  it('places a reused reply’s facts on the lines its piece stands on now', async () => {
    const before = factsOf(db);
    expect(before.length).toBeGreaterThan(0);
    // Two lines above every piece: each piece's text is the same, its lines are two further down.
    const text = readFileSync(join(notes, 'logbook.md'), 'utf8');
    writeFileSync(join(notes, 'logbook.md'), text.replace('# Harbour logbook\n', '# Harbour logbook\n\n\n'));
    const third = await reindexAndRefine(notes);
    expect([third.report.refined, third.calls]).toEqual([1, 0]);
    expect(factsOf(db)).toEqual(before.map((f) => ({ ...f, lineFrom: f.lineFrom + 2, lineTo: f.lineTo + 2 })));
  });

  it('releases a removed note’s replies, and a note brought back in another folder is not sent to the model again', async () => {
    const held = db.prepare('SELECT key FROM kept_replies ORDER BY key').pluck().all() as string[];
    const pieces = held.length;
    // The first test's edit released the reply of the piece it changed.
    expect(db.prepare('SELECT count(*) FROM released_replies WHERE root = ?').pluck().get(notes)).toBe(1);
    const text = readFileSync(join(notes, 'logbook.md'), 'utf8');
    unlinkSync(join(notes, 'logbook.md'));
    await indexFolder(db, embedder, notes);
    expect(db.prepare('SELECT count(*) FROM kept_replies').pluck().get()).toBe(0);
    expect(db.prepare('SELECT key FROM released_replies WHERE root = ?').pluck().all(notes)).toEqual(expect.arrayContaining(held));

    // Moved to another library folder: the same pieces, found by key.
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'logbook.md'), text);
    const back = await reindexAndRefine(other);
    expect([back.report.refined, back.report.reusedPieces, back.calls]).toEqual([1, pieces, 0]);
    expect(db.prepare('SELECT key FROM kept_replies ORDER BY key').pluck().all()).toEqual(held);
    // Held again, so no longer released; the edited piece's old reply waits on.
    expect(db.prepare('SELECT count(*) FROM released_replies').pluck().get()).toBe(1);
  });

  it('brings back an edit undone without the model', async () => {
    const other = join(dir, 'other');
    const text = readFileSync(join(other, 'logbook.md'), 'utf8');
    writeFileSync(join(other, 'logbook.md'), text.replace('The lamp was cleaned in April, a month late.', 'The lamp was cleaned in March.'));
    const undone = await reindexAndRefine(other);
    expect([undone.report.refined, undone.calls]).toEqual([1, 0]);
  });
});
