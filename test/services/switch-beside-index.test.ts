import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine, type EngineEvent } from '../../main/engine/engine.js';
import { DEFAULT_SETTINGS } from '../../main/engine/settings.js';
import { rowsMissingEmbeddings } from '../../main/engine/store/embeddings.js';
import { PATH_SEPARATOR } from '../../main/contract/shapes/domain.js';
import { embeddingsServer, expectVectorsOfCurrentText } from '../support/embeddings-server.js';
import { mapOnlyTexts } from '../support/fact-paths.js';

const samples = resolve(import.meta.dirname, '../../resources/sample-notes');
/** A word no sample note holds: the texts of the notes edited mid-switch carry it. */
const MARKER = 'Quorvantine';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-switch-index-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Texts only the mind maps hold (support/fact-paths.ts), filled once the library is indexed. */
const mapOnly = new Set<string>();
/** The switch's batches of fact paths; the edited notes' texts carry MARKER. */
const switchFactPaths = (input: string[]) => input.some((t) => t.includes(PATH_SEPARATOR) || mapOnly.has(t)) && !input.some((t) => t.includes(MARKER));
/** Every batch of the switch: the edited notes' texts carry MARKER. */
const switchBatches = (input: string[]) => !input.some((t) => t.includes(MARKER));

/** Edits one note and adds another, both carrying MARKER. */
function editNotes(notes: string): void {
  appendFileSync(join(notes, 'people', 'Mara Lindqvist.md'), `\nShe also ran the ${MARKER} tasting club in Bergen for two winters.\n`);
  writeFileSync(join(notes, 'brewing', `${MARKER} Method.md`), `# ${MARKER} Method\n\nThe ${MARKER} method steeps the grounds for nine minutes before a slow press.\n`);
}

type Library = { notes: string; server: Awaited<ReturnType<typeof embeddingsServer>>; engine: LociEngine };

/**
 * A copy of the sample notes indexed with the built-in embedder, beside an embeddings server that holds
 * what `held` picks once told to; both closed after `body`.
 */
async function withLibrary(name: string, held: (input: string[]) => boolean, body: (library: Library) => Promise<void>): Promise<void> {
  const notes = join(dir, name);
  cpSync(samples, notes, { recursive: true });
  const server = await embeddingsServer(held);
  const engine = await LociEngine.open({ dbPath: join(dir, `${name}.db`) });
  try {
    await engine.library.index(notes);
    mapOnly.clear();
    for (const t of mapOnlyTexts(engine.db)) mapOnly.add(t);
    await body({ notes, server, engine });
  } finally {
    await engine.close();
    await server.close();
  }
}

/** Dense search finds the note added mid-switch among its first `k` passages. */
async function findsAddedNote(engine: LociEngine, k: number): Promise<boolean> {
  const found = await engine.answers.ask(`What is the ${MARKER} method?`, { method: 'dense', k });
  return found.contexts.some((c) => c.text.includes(MARKER));
}

/** After the switch: every row has the new embedder's vector, of its own current text, and nothing else has one. */
async function expectCompleteGraph(engine: LociEngine): Promise<void> {
  await expectVectorsOfCurrentText(engine);
  expect(engine.db.prepare('SELECT count(*) FROM graph_pending').pluck().get()).toBe(0);
  const stats = engine.views.stats();
  expect(stats.switching).toBeNull();
  // The rebuilt document layer links every note, the new one too.
  const unlinked = engine.db.prepare("SELECT count(*) FROM documents d WHERE d.status = 'indexed' AND NOT EXISTS (SELECT 1 FROM doc_edges e WHERE e.src = d.id)").pluck().get();
  expect(unlinked).toBe(0);
}

describe('an index run while the embedder is switched', () => {
  it('runs while the fact paths are embedded for the new model, and the switch then builds the graph with its notes', { timeout: 60_000 }, () =>
    // Held: the switch's fact paths, embedded once it answers with the new model.
    withLibrary('answering', switchFactPaths, async ({ notes, server, engine }) => {
      const events: EngineEvent[] = [];
      engine.events.subscribe((e) => e.type === 'embedder' && events.push(e));
      server.holdFromNow();
      await engine.settings.update({ embedder: server.spec });
      await server.firstHeld;
      expect(engine.views.stats().switching).toMatchObject({ spec: server.spec, state: 'running', answering: true });
      // pgr reads the fact paths embedded so far, and its answer says so; methods reading complete vectors do not.
      const partial = await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'pgr', k: 3 });
      expect(partial.notice).toMatch(/still embedding PG-RAG's fact paths for the new model \(0 of \d+\): pgr searched those done so far/);
      expect((await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'loci', k: 3 })).notice).toBeUndefined();

      editNotes(notes);
      // Before, this run waited behind the whole switch: with the fact paths held, forever.
      const report = await engine.library.index(notes);
      expect(report.changed).toBe(2);
      expect(engine.views.stats().switching).toMatchObject({ state: 'running', answering: true });
      // The notes written are searchable with the new model: every row of theirs has its vector, and
      // they wait for the switch's graph step.
      const docs = engine.db.prepare('SELECT id FROM documents WHERE id IN (SELECT document_id FROM graph_pending)').pluck().all() as number[];
      expect(docs).toHaveLength(2);
      for (const kind of ['doc', 'chunk', 'fci', 'mm'] as const) expect(rowsMissingEmbeddings(engine.db, kind, engine.embedder.id, docs), kind).toEqual([]);
      expect(await findsAddedNote(engine, 50)).toBe(true);

      server.release();
      await engine.embedders.switchEmbedder(server.spec);
      await expectCompleteGraph(engine);
      expect(events.at(-1)).toMatchObject({ state: 'done' });
      expect((await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method: 'pgr', k: 3 })).notice).toBeUndefined();
    }));

  it('builds the graph for notes indexed after a swap when the embedder the graph was built with is chosen again', { timeout: 60_000 }, () =>
    withLibrary('back-again', switchFactPaths, async ({ notes, server, engine }) => {
      const glove = engine.embedder.id;
      server.holdFromNow();
      await engine.settings.update({ embedder: server.spec });
      await server.firstHeld;
      editNotes(notes);
      await engine.library.index(notes); // after the swap: its notes wait for the switch's graph step
      expect(engine.db.prepare('SELECT count(*) FROM graph_pending').pluck().get()).toBe(2);
      // A change of mind: the built-in embedder again, whose graph this still is. No re-embedding is
      // needed, but the two notes still lack its vectors and their graph step.
      await engine.settings.update({ embedder: DEFAULT_SETTINGS.embedder });
      await engine.embedders.switchEmbedder(DEFAULT_SETTINGS.embedder);
      expect(engine.embedder.id).toBe(glove);
      server.release();
      await expectCompleteGraph(engine);
      expect(await findsAddedNote(engine, 5)).toBe(true);
    }));

  it('runs while what questions read is embedded, and the switch embeds the notes it wrote before the swap', { timeout: 60_000 }, () =>
    // Held: every batch of the switch (the old embedder is built in, so the index run sends none).
    withLibrary('before-swap', switchBatches, async ({ notes, server, engine }) => {
      const before = engine.embedder.id;
      const answeringEvents: boolean[] = [];
      engine.events.subscribe((e) => e.type === 'embedder' && e.state === 'running' && e.progress && answeringEvents.push(e.answering === true));
      await engine.settings.update({ embedder: server.spec }); // its probe is answered: the hold starts after it
      server.holdFromNow();
      await server.firstHeld;
      expect(engine.views.stats().switching).toMatchObject({ spec: server.spec, state: 'running' });
      expect(engine.views.stats().switching).not.toHaveProperty('answering');

      editNotes(notes);
      const report = await engine.library.index(notes);
      expect(report.changed).toBe(2);
      // The old embedder still answers, and the run built its graph with it as usual.
      expect(engine.embedder.id).toBe(before);
      expect(engine.db.prepare('SELECT count(*) FROM graph_pending').pluck().get()).toBe(0);
      expect(await findsAddedNote(engine, 5)).toBe(true);

      server.release();
      await engine.embedders.switchEmbedder(server.spec);
      expect(engine.embedder.id).not.toBe(before);
      // Rows the run rewrote while the switch's batch was out are embedded by their new text, not the old.
      await expectCompleteGraph(engine);
      expect(answeringEvents).toContain(true);
    }));
});
