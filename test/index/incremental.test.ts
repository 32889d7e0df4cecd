import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFile, mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';

// Generated notes (no shared data), enough for the first run to go through the worker threads. Notes
// share sentences and names, so the index has entities, document edges and super nodes across notes.
const PLACES = ['harbour', 'orchard', 'glacier', 'library', 'railway', 'vineyard'];
const PEOPLE = ['Erik Holm', 'Mara Lindqvist', 'Sofie Brandt'];
async function writeNotes(root: string, n: number): Promise<void> {
  await mkdir(root, { recursive: true });
  for (let i = 0; i < n; i++) {
    const place = PLACES[i % PLACES.length]!;
    const who = PEOPLE[i % PEOPLE.length]!;
    await writeFile(
      join(root, `${place}-${i}.md`),
      `# ${place} ${i}\n\nThe ${place} was visited by ${who} in ${1900 + (i % 40)}.\nThe ${place} opens every morning at seven.\n\n` +
        `## Findings\n\n${who} counted ${i + 3} boats near the ${place}.\nThe weather at the ${place} stayed calm all week.\n\nSee [[${PLACES[(i + 1) % PLACES.length]} ${i + 1}]].\n`,
    );
  }
}

type Row = Record<string, unknown>;
/** The index's content with row ids replaced by what they stand for (ids differ between two histories). */
function content(db: Db): Record<string, Row[]> {
  const q = (sql: string) => db.prepare(sql).all() as Row[];
  const ownerText = `CASE e.owner_kind
      WHEN 'doc' THEN (SELECT rel_path FROM documents WHERE id = e.owner_id)
      WHEN 'chunk' THEN (SELECT d.rel_path || '#' || c.ord FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = e.owner_id)
      WHEN 'fci' THEN (SELECT d.rel_path || '#' || f.text FROM fcis f JOIN documents d ON d.id = f.document_id WHERE f.id = e.owner_id)
      WHEN 'mm' THEN (SELECT d.rel_path || '#' || m.path_text FROM mm_nodes m JOIN documents d ON d.id = m.document_id WHERE m.id = e.owner_id)
      WHEN 'entity' THEN (SELECT norm FROM entities WHERE id = e.owner_id) END`;
  return {
    documents: q('SELECT rel_path, title, content_hash, status FROM documents ORDER BY rel_path'),
    chunks: q('SELECT d.rel_path, c.ord, c.text, c.line_from, c.line_to FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY 1, 2'),
    fts: q('SELECT d.rel_path, c.ord, f.seg FROM chunks_fts f JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id ORDER BY 1, 2'),
    fcis: q('SELECT d.rel_path, f.text, f.line_from, f.line_to FROM fcis f JOIN documents d ON d.id = f.document_id ORDER BY 1, 2, 3'),
    mm: q('SELECT d.rel_path, m.kind, m.path_text, m.depth, m.ord FROM mm_nodes m JOIN documents d ON d.id = m.document_id ORDER BY 1, 3, 4, 5'),
    // Not the type: an entity keeps the type of the first note that named it, so it depends on history.
    entities: q('SELECT norm, name FROM entities ORDER BY norm'),
    mentions: q('SELECT d.rel_path, e.norm, m.line_from, m.line_to FROM entity_mentions m JOIN entities e ON e.id = m.entity_id JOIN documents d ON d.id = m.document_id ORDER BY 1, 2, 3, 4'),
    triples: q(`SELECT d.rel_path, s.norm AS s, t.relation, o.norm AS o, t.line_from FROM triples t JOIN documents d ON d.id = t.document_id
                JOIN entities s ON s.id = t.subject_id JOIN entities o ON o.id = t.object_id ORDER BY 1, 2, 3, 4, 5`),
    embeddings: q(`SELECT e.owner_kind, ${ownerText} AS owner, hex(e.vector) AS v FROM embeddings e ORDER BY 1, 2, 3`),
    docEdges: q(`SELECT s.rel_path AS src, d.rel_path AS dst, x.weight FROM doc_edges x JOIN documents s ON s.id = x.src JOIN documents d ON d.id = x.dst ORDER BY 1, 2`),
    superNodes: (
      db
        .prepare(
          `SELECT s.kind || ': ' || group_concat(d.rel_path || '#' || m.path_text, ' | ') FROM super_nodes s
             JOIN (SELECT * FROM super_members ORDER BY node_id) x ON x.super_id = s.id
             JOIN mm_nodes m ON m.id = x.node_id JOIN documents d ON d.id = m.document_id GROUP BY s.id`,
        )
        .pluck()
        .all() as string[]
    )
      .sort()
      .map((g) => ({ g })),
  };
}

let dir: string;
let embedder: Embedder;
const previousWorkers = process.env.LOCI_INDEX_WORKERS;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-incremental-'));
  await writeNotes(join(dir, 'notes'), 60);
  embedder = await createEmbedder();
  process.env.LOCI_INDEX_WORKERS = '1';
});
afterAll(async () => {
  if (previousWorkers === undefined) delete process.env.LOCI_INDEX_WORKERS;
  else process.env.LOCI_INDEX_WORKERS = previousWorkers;
  await rm(dir, { recursive: true, force: true });
});

describe('one changed note', () => {
  it("re-derives only that note's rows, and leaves the index equal to a full rebuild's", async () => {
    const notes = join(dir, 'notes');
    const db = openDb(join(dir, 'incremental.db'));
    await indexFolder(db, embedder, notes);
    const othersBefore = () =>
      db
        .prepare(
          `SELECT 'fci', f.id FROM fcis f JOIN documents d ON d.id = f.document_id WHERE d.rel_path <> 'glacier-32.md'
           UNION ALL SELECT 'mm', m.id FROM mm_nodes m JOIN documents d ON d.id = m.document_id WHERE d.rel_path <> 'glacier-32.md'
           UNION ALL SELECT 'chunk', c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.rel_path <> 'glacier-32.md' ORDER BY 1, 2`,
        )
        .raw()
        .all();
    const before = othersBefore();

    // The note belongs to a super node (its rows are deleted and must merge back in) and the edit brings
    // a new name (an entity to embed); its document vector moves, and with it document edges.
    await appendFile(join(notes, 'glacier-32.md'), '\nAstrid Vik planted pears near the glacier.\n');
    const edited = await indexFolder(db, embedder, notes);
    expect(edited.changed).toBe(1);
    expect(edited.unchanged).toBe(59);
    // Every other note's rows kept their ids: nothing of theirs was deleted and written again.
    expect(othersBefore()).toEqual(before);
    const incremental = content(db);
    expect(incremental.entities!.some((e) => e.norm === 'astrid vik')).toBe(true);
    // The edit moved the note's weather fact under a new paragraph route: it left the super node it
    // linked, and the rest of that group must fall apart as a rebuild would group it.
    expect(incremental.superNodes!.some(({ g }) => String(g).includes('glacier-32.md#'))).toBe(false);
    db.close();

    // The same folder indexed from nothing.
    const fresh = openDb(join(dir, 'fresh.db'));
    await indexFolder(fresh, embedder, notes);
    const rebuilt = content(fresh);
    fresh.close();
    for (const table of Object.keys(rebuilt)) expect(incremental[table], table).toEqual(rebuilt[table]);
  }, 300_000);

  it('after a note is deleted and another added, equals a full rebuild too', async () => {
    const notes = join(dir, 'notes');
    const db = openDb(join(dir, 'incremental.db'));
    await indexFolder(db, embedder, notes);
    await unlink(join(notes, 'harbour-6.md'));
    await writeFile(join(notes, 'harbour-new.md'), '# harbour new\n\nThe weather at the harbour stayed calm all week.\nErik Holm counted 9 boats near the harbour.\n');
    const run = await indexFolder(db, embedder, notes);
    expect([run.changed, run.removed]).toEqual([1, 1]);
    const incremental = content(db);
    db.close();
    const fresh = openDb(join(dir, 'fresh-2.db'));
    await indexFolder(fresh, embedder, notes);
    const rebuilt = content(fresh);
    fresh.close();
    for (const table of Object.keys(rebuilt)) expect(incremental[table], table).toEqual(rebuilt[table]);
  }, 300_000);
});

describe('an index built by an older fast pipeline', () => {
  it('has its fast-mode notes extracted again by the next run, and then equals a full rebuild', async () => {
    const notes = join(dir, 'notes');
    const db = openDb(join(dir, 'upgraded.db'));
    const notices: string[] = [];
    const onNotice = (m: string) => notices.push(m);
    await indexFolder(db, embedder, notes, { onNotice });
    // A new index is built by the current pipeline: nothing to explain.
    expect(notices).toEqual([]);
    const fresh = content(db);
    // What an index of the previous release looks like: no pipeline version, and facts that an older
    // extractor cut differently (the notes on disk are unchanged, so only the version can tell).
    db.prepare("DELETE FROM settings WHERE key = 'fast_pipeline'").run();
    db.prepare("UPDATE fcis SET text = text || ' (older cut)'").run();
    const upgraded = await indexFolder(db, embedder, notes, { onNotice });
    expect(upgraded.changed).toBe(fresh.documents!.length);
    // The user is told why unchanged notes are redone, with how many.
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(new RegExp(`extracts more .* ${fresh.documents!.length} unchanged notes are extracted again, once`));
    const after = content(db);
    for (const table of Object.keys(fresh)) expect(after[table], table).toEqual(fresh[table]);
    // Once is enough: the next run finds every note unchanged.
    const again = await indexFolder(db, embedder, notes, { onNotice });
    expect([again.changed, again.unchanged]).toEqual([0, fresh.documents!.length]);
    expect(notices).toHaveLength(1);
    db.close();
  }, 300_000);
});
