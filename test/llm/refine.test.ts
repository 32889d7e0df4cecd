import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { extractorFor } from '../../main/engine/extract/llm/extract.js';
import { refineIndex } from '../../main/engine/extract/llm/refine.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import type { LlmProvider } from '../../main/engine/llm/provider.js';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { modelPassStatus } from '../../main/engine/store/model-pass.js';
import type { IndexProgress } from '../../main/engine/types.js';
import { tinyModelPath } from './helpers/tiny-model.js';
import { counting } from './helpers/counting.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/llm/notes');
const SMALL_NOTES = ['lighthouses.md', 'automation.md', '灯塔.md'];
// The tiny story model writes nothing its notes support: keep its facts (minSupport 0) so there are rows to check;
// its 512-token vocabulary spells JSON nearly character by character, so it gets room to close a reply.
const OPTS = { maxTries: 1, minSupport: 0, maxTokens: { piece: 1200 } };

/** Per document: does it have this extractor's mind map, FCIs — all or nothing? */
function perDoc(db: Db, extractor: string) {
  return db
    .prepare(
      `SELECT d.id, d.rel_path AS path,
        (SELECT count(*) FROM mm_nodes m WHERE m.document_id = d.id AND m.extractor = ?) AS mm,
        (SELECT count(*) FROM fcis f WHERE f.document_id = d.id AND f.extractor = ?) AS fcis,
        (SELECT count(*) FROM fcis f WHERE f.document_id = d.id AND f.extractor != ?) AS other
       FROM documents d WHERE d.status = 'indexed' ORDER BY d.rel_path`,
    )
    .all(extractor, extractor, extractor) as { id: number; path: string; mm: number; fcis: number; other: number }[];
}

// Two shared cores under other helpers' load make a tiny-model pass take minutes; the default 120 s is too tight.
describe('refineIndex: the background LLM pass over a real index', { timeout: 300_000 }, () => {
  let llm: LocalLlamaProvider;
  let embedder: Embedder;
  let dir: string;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), sequences: 2 });
    embedder = await createStaticEmbedder();
    dir = mkdtempSync(join(tmpdir(), 'loci-refine-'));
  });
  afterAll(async () => {
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function freshIndex(name: string): Promise<{ db: Db; notes: string }> {
    const notes = join(dir, `${name}-notes`);
    for (const f of SMALL_NOTES) cpSync(join(FIXTURES, f), join(notes, f));
    const db = openDb(join(dir, `${name}.db`));
    await indexFolder(db, embedder, notes);
    return { db, notes };
  }

  it('refines every note, with provenance rows, embeddings and progress; a second run does no model work', async () => {
    const { db } = await freshIndex('cache');
    const model = counting(llm);
    const ex = extractorFor(model);
    const progress: IndexProgress[] = [];
    const first = await refineIndex(db, embedder, model, { ...OPTS, onProgress: (p) => progress.push(p) });
    expect(first.extractor).toBe(ex);
    expect(first.refined).toBe(SMALL_NOTES.length);
    expect(first.failed).toEqual([]);
    expect(model.counter.calls).toBeGreaterThan(0);
    for (const d of perDoc(db, ex)) {
      expect(d.mm, d.path).toBeGreaterThan(0);
      expect(d.fcis, d.path).toBeGreaterThan(0);
      expect(d.other, d.path).toBe(0); // the model's extraction replaced fast mode's
    }
    // Every FCI and fact row points at a chunk of its own document, inside that chunk's lines.
    const bad = db
      .prepare(
        `SELECT count(*) AS n FROM fcis f LEFT JOIN chunks c ON c.id = f.chunk_id
         WHERE f.extractor = ? AND (c.id IS NULL OR c.document_id != f.document_id OR f.line_from < c.line_from OR f.line_to > c.line_to)`,
      )
      .get(ex) as { n: number };
    expect(bad.n).toBe(0);
    const triples = db.prepare('SELECT count(*) AS n FROM triples WHERE extractor = ?').get(ex) as { n: number };
    expect(triples.n).toBeGreaterThan(0);
    const unembedded = db
      .prepare(`SELECT count(*) AS n FROM fcis f WHERE f.extractor = ? AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = 'fci' AND e.owner_id = f.id AND e.model = ?)`)
      .get(ex, embedder.id) as { n: number };
    expect(unembedded.n).toBe(0);
    expect(progress.at(-1)).toMatchObject({ phase: 'llm', done: SMALL_NOTES.length, total: SMALL_NOTES.length, etaSeconds: 0 });
    const jobs = db.prepare(`SELECT status, count(*) AS n FROM jobs WHERE kind = 'llm-extract' GROUP BY status`).all();
    expect(jobs).toEqual([{ status: 'done', n: SMALL_NOTES.length }]);

    const callsBefore = model.counter.calls;
    const second = await refineIndex(db, embedder, model, OPTS);
    expect(second.refined).toBe(0);
    expect(second.cached).toBe(SMALL_NOTES.length);
    expect(model.counter.calls).toBe(callsBefore);
    db.close();
  });

  it('re-extracts only a note whose content changed, and everything for another model', async () => {
    const { db, notes } = await freshIndex('change');
    const model = counting(llm);
    await refineIndex(db, embedder, model, OPTS);
    appendFileSync(join(notes, 'automation.md'), '\nThe newest lights use LED lamps that last ten years.\n');
    await indexFolder(db, embedder, notes);
    const again = await refineIndex(db, embedder, model, OPTS);
    expect(again.refined).toBe(1);
    expect(again.cached).toBe(SMALL_NOTES.length - 1);

    const other = counting(llm, 'another-model');
    const switched = await refineIndex(db, embedder, other, OPTS);
    expect(switched.extractor).toBe(extractorFor(other));
    expect(switched.refined).toBe(SMALL_NOTES.length);
    expect(perDoc(db, extractorFor(other)).every((d) => d.mm > 0 && d.other === 0)).toBe(true);
    db.close();
  });

  it('a killed run leaves no half-written note and the next run finishes without redoing finished notes', async () => {
    const { db } = await freshIndex('resume');
    const model = counting(llm);
    const ex = extractorFor(model);
    const controller = new AbortController();
    await expect(
      refineIndex(db, embedder, model, {
        ...OPTS,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.done === 1) controller.abort();
        },
      }),
    ).rejects.toThrow();
    const after = perDoc(db, ex);
    const finished = after.filter((d) => d.mm > 0);
    expect(finished.length).toBeGreaterThanOrEqual(1);
    expect(finished.length).toBeLessThan(SMALL_NOTES.length);
    for (const d of after) {
      // All or nothing per note: either the model's full extraction, or fast mode's untouched.
      if (d.mm > 0) expect([d.fcis > 0, d.other]).toEqual([true, 0]);
      else expect([d.fcis, d.other > 0]).toEqual([0, true]);
    }
    const resumed = await refineIndex(db, embedder, model, OPTS);
    expect(resumed.cached).toBe(finished.length);
    expect(resumed.refined).toBe(SMALL_NOTES.length - finished.length);
    expect(perDoc(db, ex).every((d) => d.mm > 0)).toBe(true);
    db.close();
  });

  it('survives SIGKILL of the indexing process: no half-written note, the re-run redoes only unfinished notes', async () => {
    const { db } = await freshIndex('sigkill');
    const file = db.name;
    const ex = extractorFor(llm);
    db.close();
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'helpers/refine-script.ts'), file, await tinyModelPath()], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Kill it as soon as the first note is committed.
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (b: Buffer) => {
        if (/progress 1\//.test(b.toString())) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error('the refine process ended before it could be killed')));
    });
    expect(await exited).toBe('SIGKILL');
    const reopened = openDb(file);
    const after = perDoc(reopened, ex);
    const finished = after.filter((d) => d.mm > 0).length;
    expect(finished).toBeGreaterThanOrEqual(1);
    for (const d of after) {
      if (d.mm > 0) expect([d.fcis > 0, d.other]).toEqual([true, 0]);
      else expect([d.fcis, d.other > 0]).toEqual([0, true]);
    }
    const resumed = await refineIndex(reopened, embedder, llm, OPTS);
    expect(resumed.cached).toBe(finished);
    expect(resumed.refined).toBe(SMALL_NOTES.length - finished);
    expect(perDoc(reopened, ex).every((d) => d.mm > 0)).toBe(true);
    // The killed run's job row is closed as interrupted, not left running.
    const running = reopened.prepare(`SELECT count(*) AS n FROM jobs WHERE kind = 'llm-extract' AND status = 'running'`).get() as { n: number };
    expect(running.n).toBe(0);
    reopened.close();
  });

  it('stores nothing when the model cannot answer at all, so the next run retries those notes', async () => {
    const { db } = await freshIndex('down');
    const gone = await LocalLlamaProvider.open({ modelPath: await tinyModelPath() });
    await gone.close(); // a real provider whose model is no longer there
    const failedRun = await refineIndex(db, embedder, gone, OPTS);
    expect(failedRun.refined).toBe(0);
    expect(failedRun.failed).toHaveLength(SMALL_NOTES.length);
    expect(perDoc(db, extractorFor(gone)).every((d) => d.mm === 0 && d.other > 0)).toBe(true);
    const retry = await refineIndex(db, embedder, llm, OPTS);
    expect(retry.refined).toBe(SMALL_NOTES.length);
    db.close();
  });

  it('writes nothing for a note whose content changed while the model worked', async () => {
    const { db } = await freshIndex('stale');
    const model: LlmProvider = {
      id: llm.id,
      close: async () => {},
      generate: async (r) => {
        db.prepare(`UPDATE documents SET content_hash = 'changed-meanwhile' WHERE rel_path = 'automation.md'`).run();
        return llm.generate(r);
      },
    };
    const r = await refineIndex(db, embedder, model, { ...OPTS, docIds: [(db.prepare(`SELECT id FROM documents WHERE rel_path = 'automation.md'`).get() as { id: number }).id] });
    expect(r.stale).toBe(1);
    expect(r.refined).toBe(0);
    expect(perDoc(db, extractorFor(model)).every((d) => d.mm === 0)).toBe(true);
    db.close();
  });

  it('reports progress within a note, cancels mid-note, and keeps each note\'s state and failure reason for the Library', async () => {
    const { db } = await freshIndex('status');
    const controller = new AbortController();
    const progress: IndexProgress[] = [];
    // The real model answers; on the first call for the second note, Cancel is pressed while that call runs.
    const model: LlmProvider = {
      id: llm.id,
      close: async () => {},
      generate: (r) => {
        const running = llm.generate(r);
        if (progress.some((p) => p.done === 1) && !controller.signal.aborted) setTimeout(() => controller.abort(), 0);
        return running;
      },
    };
    await expect(
      refineIndex(db, embedder, model, { ...OPTS, concurrentNotes: 1, maxPieceChars: 200, signal: controller.signal, onProgress: (p) => progress.push(p) }),
    ).rejects.toThrow();
    // Pieces of a long note were reported as they finished, with an ETA once one note was done.
    expect(progress.some((p) => /\(piece \d+\/\d+\)$/.test(p.current ?? ''))).toBe(true);
    expect(progress.filter((p) => p.done >= 1).every((p) => p.etaSeconds !== null)).toBe(true);
    const status = modelPassStatus(db);
    expect(status).toHaveLength(SMALL_NOTES.length);
    expect(status.filter((s) => s.state === 'model')).toHaveLength(1);
    const cancelled = status.filter((s) => s.state === 'failed');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.reason).toBe('cancelled');
    // The cancelled note kept its fast rows whole.
    const rows = perDoc(db, extractorFor(model)).find((d) => d.id === cancelled[0]!.documentId)!;
    expect([rows.mm, rows.fcis, rows.other > 0]).toEqual([0, 0, true]);

    // A model that cannot answer: the note is failed, with the provider's reason; a later success clears it.
    const gone = await LocalLlamaProvider.open({ modelPath: await tinyModelPath() });
    await gone.close();
    const target = status.find((s) => s.state === 'fast')!;
    await refineIndex(db, embedder, gone, { ...OPTS, docIds: [target.documentId] });
    const failed = modelPassStatus(db, [target.documentId])[0]!;
    expect(failed.state).toBe('failed');
    expect(failed.reason).toMatch(/closed/i);
    await refineIndex(db, embedder, llm, OPTS);
    expect(modelPassStatus(db).every((s) => s.state === 'model' && s.extractor === extractorFor(llm))).toBe(true);
    db.close();
  });
});
