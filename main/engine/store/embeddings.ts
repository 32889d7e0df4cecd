import { stmt } from './statements.js';
import type { Db } from './db.js';

/** The kinds of rows that carry vectors: documents, chunks, FCIs, mind-map nodes (by path text), entities. */
export type OwnerKind = 'doc' | 'chunk' | 'fci' | 'mm' | 'entity';

export function writeEmbeddings(db: Db, kind: OwnerKind, model: string, rows: { id: number; vector: Float32Array }[]): void {
  const insert = stmt(db, 'INSERT OR REPLACE INTO embeddings (owner_kind, owner_id, model, dim, vector) VALUES (?, ?, ?, ?, ?)');
  for (const r of rows) insert.run(kind, r.id, model, r.vector.length, Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength));
}

export function loadEmbeddings(db: Db, kind: OwnerKind, model: string): { id: number; vector: Float32Array }[] {
  const rows = db
    .prepare('SELECT owner_id AS id, vector FROM embeddings WHERE owner_kind = ? AND model = ? ORDER BY owner_id')
    .raw()
    .all(kind, model) as [number, Buffer][];
  return rows.map(([id, buf]) => ({ id, vector: toFloat32(buf) }));
}

export function loadEmbedding(db: Db, kind: OwnerKind, model: string, id: number): Float32Array | undefined {
  const row = db
    .prepare('SELECT vector FROM embeddings WHERE owner_kind = ? AND model = ? AND owner_id = ?')
    .get(kind, model, id) as { vector: Buffer } | undefined;
  return row ? toFloat32(row.vector) : undefined;
}

/**
 * The vectors of a few rows of a kind, by id (ids without one are absent): what a question's answer
 * reads of the facts of its notes, where the whole kind held in memory (120k facts at 10k news) cost a
 * second of loading after each edit and hundreds of MB with a 384-dimension model.
 */
export function loadEmbeddingsOf(db: Db, kind: OwnerKind, model: string, ids: number[]): Map<number, Float32Array> {
  if (ids.length === 0) return new Map();
  const rows = stmt(db, 'SELECT owner_id, vector FROM embeddings WHERE owner_kind = ? AND model = ? AND owner_id IN (SELECT value FROM json_each(?))')
    .raw()
    .all(kind, model, JSON.stringify(ids)) as [number, Buffer][];
  return new Map(rows.map(([id, buf]) => [id, toFloat32(buf)]));
}

export function toFloat32(buf: Buffer): Float32Array {
  // Copy: the Buffer may not be 4-byte aligned, and better-sqlite3 reuses nothing we should alias.
  const out = new Float32Array(buf.byteLength / 4);
  new Uint8Array(out.buffer).set(buf);
  return out;
}

/** Long documents are embedded by their beginning: enough for a topic vector, bounded cost. */
export const EMBEDDED_TEXT_MAX_CHARS = 8000;

/**
 * What text stands for each kind of row when it is embedded (PG-RAG eq. 2: mind-map nodes by path),
 * with `@docs` standing for the documents the rows are limited to.
 */
const EMBEDDED_TEXT: Record<OwnerKind, (scoped: boolean) => string> = {
  doc: (scoped) => `SELECT d.id, d.title || ' ' || COALESCE((SELECT group_concat(c.text, char(10)) FROM chunks c WHERE c.document_id = d.id AND c.is_code = 0), '')
        FROM documents d WHERE d.status = 'indexed'${scoped ? ' AND d.id IN (SELECT value FROM json_each(@docs))' : ''}`,
  chunk: (scoped) =>
    `SELECT c.id, COALESCE(d.title, '') || ' ' || c.text FROM chunks c JOIN documents d ON d.id = c.document_id${scoped ? ' WHERE c.document_id IN (SELECT value FROM json_each(@docs))' : ''}`,
  fci: (scoped) => `SELECT id, text FROM fcis${scoped ? ' WHERE document_id IN (SELECT value FROM json_each(@docs))' : ''}`,
  mm: (scoped) => `SELECT id, path_text FROM mm_nodes${scoped ? ' WHERE document_id IN (SELECT value FROM json_each(@docs))' : ''}`,
  // An entity is created by a note that mentions it (a triple's ends are mentions too).
  entity: (scoped) =>
    scoped
      ? `SELECT e.id, e.name FROM entities e WHERE e.id IN (SELECT m.entity_id FROM entity_mentions m WHERE m.document_id IN (SELECT value FROM json_each(@docs)))`
      : 'SELECT id, name FROM entities',
};

/**
 * Rows of `kind` with no vector from `model` yet, as [id, text to embed]: all of them, or those of the
 * given documents (and the entities they mention), in id order.
 */
export function rowsMissingEmbeddings(db: Db, kind: OwnerKind, model: string, docIds: number[] | null = null): [number, string][] {
  const scoped = docIds !== null;
  return db
    .prepare(
      `SELECT * FROM (${EMBEDDED_TEXT[kind](scoped)}) src
       WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = @kind AND e.model = @model AND e.owner_id = src.id)
       ORDER BY 1`,
    )
    .raw()
    .all({ kind, model, ...(scoped ? { docs: JSON.stringify(docIds) } : {}) }) as [number, string][];
}

/** Every row of `kind` with the text it is embedded by (uncut), in id order: what `loci bench-index` counts and embeds as the floor. */
export function embeddedTexts(db: Db, kind: OwnerKind): [number, string][] {
  const rows = db.prepare(`SELECT * FROM (${EMBEDDED_TEXT[kind](false)}) ORDER BY 1`).raw().all() as [number, string | null][];
  return rows.map(([id, text]) => [id, text ?? '']);
}

/**
 * How each of these mind-map rows' path (ancestors' texts › its own) is made of parts: its parent node,
 * and either the fact it states (its text the fact's) or its own text (a heading, a list item). A root
 * has no parent. What embed/fact-path-vectors.ts composes a path's vector from.
 */
export function factPathParts(db: Db, ids: number[]): Map<number, { parent: number | null; fci: number | null; text: string }> {
  const rows = stmt(
    db,
    `SELECT n.id, n.parent_id, CASE WHEN f.text = n.text THEN f.id END, n.text FROM mm_nodes n LEFT JOIN fcis f ON f.id = n.fci_id
     WHERE n.id IN (SELECT value FROM json_each(?))`,
  )
    .raw()
    .all(JSON.stringify(ids)) as [number, number | null, number | null, string][];
  return new Map(rows.map(([id, parent, fci, text]) => [id, { parent, fci, text }]));
}

/**
 * This model's vectors of rows of `kind` (of the given documents, or all), by the text each embeds (cut
 * to EMBEDDED_TEXT_MAX_CHARS), for texts among `wanted`.
 */
export function vectorsOfTexts(db: Db, kind: OwnerKind, model: string, wanted: ReadonlySet<string>, docIds: number[] | null = null): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (wanted.size === 0) return out;
  const scoped = docIds !== null;
  // Driven by the model's vectors of the kind: a run that has embedded none of them reads no text.
  const rows = db
    .prepare(
      `WITH src(id, text) AS (${EMBEDDED_TEXT[kind](scoped)})
       SELECT src.text, e.vector FROM embeddings e CROSS JOIN src ON src.id = e.owner_id WHERE e.owner_kind = @kind AND e.model = @model`,
    )
    .raw()
    .iterate({ kind, model, ...(scoped ? { docs: JSON.stringify(docIds) } : {}) }) as IterableIterator<[string | null, Buffer]>;
  for (const [text, vector] of rows) {
    const cut = (text ?? '').slice(0, EMBEDDED_TEXT_MAX_CHARS);
    if (wanted.has(cut) && !out.has(cut)) out.set(cut, toFloat32(vector));
  }
  return out;
}

/** A note's vectors by what they embed (model → kind → embedded text → vector), kept while its rows are rewritten. */
export type VectorsByText = Map<string, Map<OwnerKind, Map<string, Buffer>>>;

/** The kinds a note's rewrite replaces (entities are shared between notes and stay). */
const NOTE_KINDS: readonly OwnerKind[] = ['doc', 'chunk', 'fci', 'mm'];

/**
 * Every vector of the note's own rows, by the text it embeds: of every model but `remade`, whose vectors
 * the rewrite writes anew (the built-in embedder's, made with the note's words in the indexing worker).
 */
export function noteVectorsByText(db: Db, docId: number, remade: string | null = null, kinds: readonly OwnerKind[] = NOTE_KINDS): VectorsByText {
  const out: VectorsByText = new Map();
  for (const kind of kinds) {
    // Once per rewritten note: the statement is kept (a library's re-extraction runs it for every note).
    // CROSS JOIN keeps SQLite from reading every vector of the kind and looking each up in the note's
    // rows (45-77 ms a note at 10k news, so a re-extraction of the library grew with its square).
    const rows = stmt(
      db,
      `WITH src(id, text) AS (${EMBEDDED_TEXT[kind](true)})
       SELECT e.model, src.text, e.vector FROM src CROSS JOIN embeddings e ON e.owner_kind = @kind AND e.owner_id = src.id WHERE e.model IS NOT @remade`,
    )
      .raw()
      .all({ kind, docs: JSON.stringify([docId]), remade }) as [string, string | null, Buffer][];
    for (const [model, text, vector] of rows) {
      let byKind = out.get(model);
      if (!byKind) out.set(model, (byKind = new Map()));
      let byText = byKind.get(kind);
      if (!byText) byKind.set(kind, (byText = new Map()));
      byText.set(text ?? '', vector);
    }
  }
  return out;
}

/**
 * Gives the note's rows that lack a vector the one kept for the same text (noteVectorsByText, read before
 * the rewrite): a text the rewrite did not change is not embedded again. Returns the kept vectors no row
 * took (the texts the note no longer holds).
 */
export function restoreNoteVectors(db: Db, docId: number, kept: VectorsByText): VectorsByText {
  const insert = stmt(db, 'INSERT OR REPLACE INTO embeddings (owner_kind, owner_id, model, dim, vector) VALUES (?, ?, ?, ?, ?)');
  const left: VectorsByText = new Map();
  for (const [model, byKind] of kept) {
    const leftOfModel = new Map<OwnerKind, Map<string, Buffer>>();
    for (const [kind, byText] of byKind) {
      const unused = new Map(byText);
      for (const [id, text] of rowsMissingEmbeddings(db, kind, model, [docId])) {
        const vector = byText.get(text ?? '');
        if (!vector) continue;
        insert.run(kind, id, model, vector.byteLength / 4, vector);
        unused.delete(text ?? '');
      }
      if (unused.size) leftOfModel.set(kind, unused);
    }
    if (leftOfModel.size) left.set(model, leftOfModel);
  }
  return left;
}

/**
 * The text each of these rows of `kind` has now, for rows that still exist: work that embedded texts read
 * earlier writes a vector only where the row still holds that text (an index run may have rewritten or
 * removed the note meanwhile).
 */
export function currentEmbeddedTexts(db: Db, kind: OwnerKind, ids: number[]): Map<number, string> {
  const rows = db
    .prepare(`SELECT * FROM (${EMBEDDED_TEXT[kind](false)}) src WHERE src.id IN (SELECT value FROM json_each(@ids))`)
    .raw()
    .all({ ids: JSON.stringify(ids) }) as [number, string | null][];
  return new Map(rows.map(([id, text]) => [id, text ?? '']));
}

/**
 * The facts of these passages (chunk ids) with no vector from `model`, as [fact id, chunk id, text]: what
 * a passage's pass can pool for them (embed/passage-facts.ts).
 */
export function factsOfPassages(db: Db, model: string, chunkIds: number[]): [number, number, string][] {
  if (chunkIds.length === 0) return [];
  return stmt(
    db,
    `SELECT f.id, f.chunk_id, f.text FROM fcis f
     WHERE f.chunk_id IN (SELECT value FROM json_each(?))
       AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = 'fci' AND e.model = ? AND e.owner_id = f.id)
     ORDER BY f.id`,
  )
    .raw()
    .all(JSON.stringify(chunkIds), model) as [number, number, string][];
}

/** Of these notes, those of more than one prose passage (not code): the notes whose vector is composed from their passages'. */
export function notesOfSeveralPassages(db: Db, docIds: number[]): Set<number> {
  if (docIds.length === 0) return new Set();
  const ids = stmt(
    db,
    `SELECT document_id FROM chunks WHERE document_id IN (SELECT value FROM json_each(?)) AND is_code = 0
     GROUP BY document_id HAVING count(*) > 1`,
  )
    .pluck()
    .all(JSON.stringify(docIds)) as number[];
  return new Set(ids);
}

/** The prose passages (not code) of these notes, in order, as note id → [chunk id, text it is embedded by]. */
export function notePassages(db: Db, docIds: number[]): Map<number, [number, string][]> {
  const out = new Map<number, [number, string][]>();
  if (docIds.length === 0) return out;
  const rows = stmt(
    db,
    `SELECT c.document_id, c.id, COALESCE(d.title, '') || ' ' || c.text FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.document_id IN (SELECT value FROM json_each(?)) AND c.is_code = 0 ORDER BY c.document_id, c.ord`,
  )
    .raw()
    .all(JSON.stringify(docIds)) as [number, number, string][];
  for (const [doc, chunk, text] of rows) {
    let list = out.get(doc);
    if (!list) out.set(doc, (list = []));
    list.push([chunk, text]);
  }
  return out;
}
