import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { embedMissing } from '../../main/engine/embed/embed-missing.js';
import { LociEngine } from '../../main/engine/engine.js';
import { must } from '../support/must.js';

// Generated notes (no shared data): enough of them that the indexer hands them to worker threads.
const TOPICS = ['harbour', 'orchard', 'glacier', 'library', 'railway', 'monastery', 'vineyard', 'observatory'];
const PEOPLE = ['Erik Holm', 'Mara Lindqvist', 'Sofie Brandt', 'Henrik Falk'];
async function writeNotes(root: string, n: number, offset = 0): Promise<void> {
  await mkdir(root, { recursive: true });
  for (let i = offset; i < offset + n; i++) {
    const t = TOPICS[i % TOPICS.length]!;
    const who = PEOPLE[i % PEOPLE.length]!;
    const body = Array.from({ length: 8 }, (_, j) => `The ${t} visit number ${i} had detail ${j}: ${who} described part ${j} of the ${t} in ${1900 + ((i + j) % 120)}.`);
    const list = Array.from({ length: 3 }, (_, j) => `- Item ${j} of the ${t} list for visit ${i} was checked by ${who}.`);
    await writeFile(
      join(root, `${t}-${i}.md`),
      `# ${t} ${i}\n\n${body.slice(0, 4).join(' ')}\n\nWhat was packed:\n\n${list.join('\n')}\n\n## Notes\n\n${body.slice(4).join('\n')}\n\n港口扩建工程将于明年春季开工，${who}负责第${i}期。\n\nSee [[${TOPICS[(i + 1) % TOPICS.length]} ${i + 1}]].\n`,
    );
  }
}

type Row = Record<string, unknown>;
function dump(db: Db): Record<string, Row[]> {
  const q = (sql: string) => db.prepare(sql).all() as Row[];
  return {
    documents: q('SELECT id, rel_path, title, lang, status FROM documents ORDER BY id'),
    chunks: q('SELECT id, document_id, ord, text FROM chunks ORDER BY id'),
    fcis: q('SELECT id, document_id, text, line_from, line_to FROM fcis ORDER BY id'),
    mm: q('SELECT id, document_id, parent_id, kind, path_text FROM mm_nodes ORDER BY id'),
    entities: q('SELECT id, norm FROM entities ORDER BY id'),
    triples: q('SELECT document_id, subject_id, relation, object_id FROM triples ORDER BY id'),
    fts: q('SELECT rowid, seg FROM chunks_fts ORDER BY rowid'),
    embeddings: q("SELECT owner_kind, owner_id, hex(vector) AS v FROM embeddings ORDER BY owner_kind, owner_id"),
    docEdges: q('SELECT src, dst FROM doc_edges ORDER BY src, dst'),
  };
}

let dir: string;
const previousWorkers = process.env.LOCI_INDEX_WORKERS;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-workers-'));
  await writeNotes(join(dir, 'notes'), 120);
});
afterAll(async () => {
  if (previousWorkers === undefined) delete process.env.LOCI_INDEX_WORKERS;
  else process.env.LOCI_INDEX_WORKERS = previousWorkers;
  await rm(dir, { recursive: true, force: true });
});

describe('indexing in worker threads', () => {
  // Generous time limits: the figures asserted are ratios, but a loaded machine makes every step slow.
  it('writes exactly the rows (ids, text, FTS, vectors, edges) that indexing on one thread writes, with batches prepared by the worker and by the engine thread', async () => {
    const embedder = await createEmbedder();
    const dbs: Db[] = [];
    for (const workers of ['1', '0']) {
      process.env.LOCI_INDEX_WORKERS = workers;
      const db = openDb(join(dir, `threads-${workers}.db`));
      const phaseTimes: Record<string, number> = {};
      const r = await indexFolder(db, embedder, join(dir, 'notes'), { phaseTimes });
      // With a worker, this thread prepared the batches the worker had not started while it waited
      // for the oldest (the worker's start-up alone guarantees some): the rows must not show it.
      if (workers === '1') expect(phaseTimes['prepare on engine thread']).toBeGreaterThan(0);
      expect(r.changed).toBe(120);
      expect(r.skipped).toEqual([]);
      dbs.push(db);
    }
    const [withWorkers, inThread] = dbs.map(dump);
    expect(withWorkers!.documents).toHaveLength(120);
    expect(must(withWorkers!.embeddings, 'embeddings table').length).toBeGreaterThan(120 * 10);
    for (const table of Object.keys(inThread!)) expect(withWorkers![table], table).toEqual(inThread![table]);
    for (const db of dbs) db.close();
  }, 300_000);

  it('makes the same vectors in the worker as embedMissing makes from the stored rows', async () => {
    process.env.LOCI_INDEX_WORKERS = '1';
    const embedder = await createEmbedder();
    const db = openDb(join(dir, 'vectors.db'));
    await indexFolder(db, embedder, join(dir, 'notes'));
    const vectors = () =>
      db.prepare("SELECT owner_kind, owner_id, hex(vector) AS v FROM embeddings WHERE owner_kind IN ('doc','chunk','fci','mm') ORDER BY 1, 2").all();
    const fromWorkers = vectors();
    expect(fromWorkers.length).toBeGreaterThan(0);
    db.prepare("DELETE FROM embeddings WHERE owner_kind IN ('doc','chunk','fci','mm')").run();
    expect(await embedMissing(db, embedder)).toBe(fromWorkers.length);
    expect(vectors()).toEqual(fromWorkers);
    db.close();
  }, 300_000);

  it('keeps answering questions while it indexes: median latency stays within a few times the idle one', async () => {
    process.env.LOCI_INDEX_WORKERS = '1';
    const engine = await LociEngine.open({ dbPath: join(dir, 'responsive.db') });
    try {
      await engine.library.index(join(dir, 'notes'));
      const questions = ['Who described the glacier?', 'When was the harbour visited?', 'What did Sofie Brandt check?'];
      // A question every 100 ms; latency counts from when it was due, so a blocked event loop (or a
      // late timer on a busy machine) shows — measured the same way idle and during indexing.
      const probe = async (keepGoing: (i: number) => boolean, out: number[]) => {
        for (let i = 0; keepGoing(i); i++) {
          const due = performance.now() + 100;
          await new Promise((r) => setTimeout(r, 100));
          if (!keepGoing(i)) break;
          await engine.answers.ask(questions[i % 3]!, { method: 'bm25' });
          out.push(performance.now() - due);
        }
      };
      const idle: number[] = [];
      await probe((i) => i < 15, idle);
      // Then a second, larger folder is indexed while the questions go on.
      await writeNotes(join(dir, 'more'), 250, 1000);
      const during: number[] = [];
      let indexing = true;
      let phases = 0;
      const asking = probe(() => indexing, during);
      await engine.library.index(join(dir, 'more'), { onProgress: () => phases++ });
      indexing = false;
      await asking;
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      console.log(`ask p50 idle ${median(idle).toFixed(0)} ms, during indexing ${median(during).toFixed(0)} ms over ${during.length}`);
      expect(during.length).toBeGreaterThanOrEqual(5);
      expect(phases).toBeGreaterThan(5);
      expect(median(during)).toBeLessThan(Math.max(5 * median(idle), median(idle) + 100));
    } finally {
      await engine.close();
    }
  }, 300_000);
});
