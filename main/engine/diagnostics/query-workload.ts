// The engine's hot paths run once over a real notes folder, on a traced database, so that
// `scripts/explain-plans.ts` and test/store/indexes.test.ts can plan exactly the SQL the engine runs:
// indexing, every retrieval method with the extractive answer, the mind map, the graph views, related
// notes, editing a note (its rewrite, and the questions again), removing a note (the delete cascade, releasing its vectors) and
// then the whole folder.
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createStaticEmbedder } from '../embed/static-embedder.js';
import { indexFolder } from '../index/run.js';
import { updateGraph } from '../graph/build.js';
import { IndexCache } from '../retrieve/index-cache.js';
import { availableMethods, retrieve } from '../retrieve/index.js';
import { extractiveAnswer } from '../answer/extractive.js';
import { buildGraphView, buildLocalGraph } from '../graph/graph-view.js';
import { relatedNotes } from '../graph/related.js';
import { loadMindMap } from '../store/mind-map.js';
import { deleteDocument, pruneOrphanEntities } from '../store/documents.js';
import { openTracedDb, type TracedDb } from '../store/query-plans.js';
import { indexedDocumentIds } from '../store/graph-queries.js';
import { deleteFolder, removeDocumentsUnder } from '../store/library.js';
import { superMemberships, superMemberVectors } from '../store/super-nodes.js';

export interface WorkloadResult {
  traced: TracedDb;
  /** Remove the temporary database (closes it first). */
  dispose(): void;
}

/** Runs the hot paths over `notesDir` (copied, so the delete touches nothing of the caller's). */
export async function runQueryWorkload(notesDir: string, questions: string[]): Promise<WorkloadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-plans-'));
  const notes = join(dir, 'notes');
  cpSync(notesDir, notes, { recursive: true });
  const traced = openTracedDb(join(dir, 'plans.db'));
  const { db } = traced;
  const dispose = () => {
    traced.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const embedder = await createStaticEmbedder();
    await indexFolder(db, embedder, notes);
    const cache = new IndexCache(db, embedder);
    const ctx = { db, embedder, cache };
    for (const method of availableMethods()) {
      for (const q of questions) {
        const r = await retrieve(ctx, q, method, 5);
        await extractiveAnswer(ctx, q, r.contexts);
      }
    }
    const ids = indexedDocumentIds(db);
    for (const id of ids.slice(0, 3)) {
      loadMindMap(db, id);
      relatedNotes(db, id, embedder.id);
      buildLocalGraph(db, id, 2, 300);
    }
    buildGraphView(db, 2000);
    // Notes edited are rewritten (their vectors kept by text), and the super nodes they were in checked
    // again: few enough of them that the pseudo-graph is updated, not rebuilt. One removed releases its vectors.
    const markdown = readdirSync(notes, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).sort();
    for (const edited of markdown.slice(0, Math.max(1, Math.floor(markdown.length / 4)))) {
      appendFileSync(join(notes, edited), '\nEdited to trace the rewrite of a note.\n');
    }
    await indexFolder(db, embedder, notes);
    // The questions again after the edit: what retrieval keeps per note is brought up to date from the
    // edited notes alone (their chunks' words and texts read by note).
    for (const q of questions) {
      const r = await retrieve(ctx, q, 'loci', 5);
      await extractiveAnswer(ctx, q, r.contexts);
    }
    // A few super nodes' members read again, as an edit in a library larger than this one does.
    superMemberVectors(db, embedder.id, [...new Set(superMemberships(db).map(([, superId]) => superId))].slice(0, 2));
    const victim = ids[0];
    if (victim !== undefined) deleteDocument(db, victim, 'release', embedder.id);
    // The names only it mentioned go, their vectors released as a model embedder's are.
    pruneOrphanEntities(db, embedder.id);
    // The folder taken out of the library: its notes, what they released, and the graph rebuilt without them.
    const root = resolve(notes);
    removeDocumentsUnder(db, root);
    deleteFolder(db, root);
    await updateGraph(db, embedder, {});
    return { traced, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}
