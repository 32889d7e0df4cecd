import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile, unlink, mkdir, appendFile, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDb, type Db } from '../../main/engine/store/db.js';
import { migrations } from '../../main/engine/store/migrations/index.js';
import { deleteDocument, pruneOrphanEntities } from '../../main/engine/store/documents.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { must } from '../support/must.js';

// Notes written for this test: two notes that share an entity ("Ada Lovelace") and link to each other.
const NOTES: Record<string, string> = {
  'engines.md': `# Analytical Engine

The Analytical Engine was a mechanical computer designed by Charles Babbage in 1837.

## Programs

Ada Lovelace wrote the first published program for the engine in 1843.
She described how it could compute Bernoulli numbers. See [[Ada Lovelace]].
`,
  'Ada Lovelace.md': `---
title: Ada Lovelace
tags: [people]
---
# Ada Lovelace

Ada Lovelace was born in London in 1815.
Her notes on the Analytical Engine include the first computer program.
`,
  'garden/tomatoes.md': `# Tomatoes

Tomatoes need at least six hours of sun a day.
Water them deeply twice a week in July.
`,
};

let dir: string;
let db: Db;
let embedder: Embedder;

async function writeNotes(root: string, notes: Record<string, string>) {
  for (const [rel, text] of Object.entries(notes)) {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), text);
  }
}

const count = (sql: string, ...args: unknown[]) => db.prepare(sql).pluck().get(...args) as number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-indexer-'));
  await writeNotes(join(dir, 'notes'), NOTES);
  db = openDb(join(dir, 'index.db'));
  embedder = await createEmbedder();
});

afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('indexFolder', () => {
  it('fills every layer of the index with provenance', async () => {
    const r = await indexFolder(db, embedder, join(dir, 'notes'));
    expect(r.changed).toBe(3);
    expect(r.counts.documents).toBe(3);
    for (const key of ['chunks', 'fcis', 'mindMapNodes', 'entities', 'triples', 'docEdges'] as const) {
      expect(r.counts[key], key).toBeGreaterThan(0);
    }
    // Every FCI's cited lines really contain its words.
    const fcis = db.prepare('SELECT f.text, f.line_from, f.line_to, d.rel_path FROM fcis f JOIN documents d ON d.id = f.document_id').all() as {
      text: string;
      line_from: number;
      line_to: number;
      rel_path: string;
    }[];
    for (const f of fcis) {
      const lines = (await readFile(join(dir, 'notes', f.rel_path), 'utf8')).split('\n').slice(f.line_from - 1, f.line_to).join(' ');
      const firstWord = f.text.split(/\s+/).find((w) => /^[A-Za-z]{4,}$/.test(w));
      if (firstWord) expect(lines).toContain(firstWord);
    }
    expect(count("SELECT count(*) FROM fcis WHERE extractor <> 'fast'")).toBe(0);
    // The shared entity merged across the two notes.
    const ada = db.prepare("SELECT id FROM entities WHERE norm = 'ada lovelace'").get() as { id: number } | undefined;
    expect(ada).toBeDefined();
    expect(count('SELECT count(DISTINCT document_id) FROM entity_mentions WHERE entity_id = ?', ada!.id)).toBe(2);
    // Every document has embeddings, and edges to the other two (K=3 > 2 others).
    expect(count("SELECT count(*) FROM embeddings WHERE owner_kind = 'doc'")).toBe(3);
    expect(count('SELECT count(*) FROM doc_edges')).toBe(6);
  });

  it('re-does nothing for an unchanged folder, and only the edited note after an edit', async () => {
    await indexFolder(db, embedder, join(dir, 'notes'));
    const idsBefore = db.prepare('SELECT fcis.id, d.rel_path FROM fcis JOIN documents d ON d.id = fcis.document_id').all();
    const again = await indexFolder(db, embedder, join(dir, 'notes'));
    expect(again.changed).toBe(0);
    expect(again.unchanged).toBe(3);
    expect(db.prepare('SELECT fcis.id, d.rel_path FROM fcis JOIN documents d ON d.id = fcis.document_id').all()).toEqual(idsBefore);

    const tomatoIdsBefore = db.prepare("SELECT f.id FROM fcis f JOIN documents d ON d.id = f.document_id WHERE d.rel_path <> 'garden/tomatoes.md'").pluck().all();
    await appendFile(join(dir, 'notes', 'garden/tomatoes.md'), '\nBasil grows well next to tomatoes.\n');
    const edited = await indexFolder(db, embedder, join(dir, 'notes'));
    expect(edited.changed).toBe(1);
    expect(edited.unchanged).toBe(2);
    // The other notes' rows are untouched (same ids); the edited note has the new fact.
    expect(db.prepare("SELECT f.id FROM fcis f JOIN documents d ON d.id = f.document_id WHERE d.rel_path <> 'garden/tomatoes.md'").pluck().all()).toEqual(tomatoIdsBefore);
    expect(count("SELECT count(*) FROM fcis WHERE text LIKE '%Basil%'")).toBe(1);
  });

  it('removes everything a deleted note contributed, keeping shared entities while another note supports them', async () => {
    await indexFolder(db, embedder, join(dir, 'notes'));
    const docId = db.prepare("SELECT id FROM documents WHERE rel_path = 'Ada Lovelace.md'").pluck().get() as number;
    await unlink(join(dir, 'notes', 'Ada Lovelace.md'));
    const r = await indexFolder(db, embedder, join(dir, 'notes'));
    expect(r.removed).toBe(1);
    for (const table of ['chunks', 'fcis', 'mm_nodes', 'entity_mentions', 'triples', 'links']) {
      expect(count(`SELECT count(*) FROM ${table} WHERE document_id = ?`, docId), table).toBe(0);
    }
    expect(count('SELECT count(*) FROM doc_edges WHERE src = ? OR dst = ?', docId, docId)).toBe(0);
    expect(count("SELECT count(*) FROM embeddings WHERE owner_kind = 'doc' AND owner_id = ?", docId)).toBe(0);
    // FTS rows and embeddings of the deleted chunks went with them.
    expect(count('SELECT count(*) FROM chunks_fts')).toBe(count('SELECT count(*) FROM chunks'));
    expect(count("SELECT count(*) FROM embeddings WHERE owner_kind = 'fci' AND owner_id NOT IN (SELECT id FROM fcis)")).toBe(0);
    expect(count("SELECT count(*) FROM embeddings WHERE owner_kind = 'mm' AND owner_id NOT IN (SELECT id FROM mm_nodes)")).toBe(0);
    // "Ada Lovelace" is still mentioned by engines.md, so the entity stays; no entity is left unsupported.
    expect(count("SELECT count(*) FROM entities WHERE norm = 'ada lovelace'")).toBe(1);
    expect(
      count('SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id)'),
    ).toBe(0);
  });

  it('drops the entities only an edited note supported, sweeping just the entities that lost a reference', async () => {
    await indexFolder(db, embedder, join(dir, 'notes'));
    expect(count('SELECT count(*) FROM entity_unsupported_pending')).toBe(0);
    const onlyTomatoes = () =>
      db
        .prepare(
          `SELECT e.norm FROM entities e WHERE NOT EXISTS (SELECT 1 FROM entity_mentions m JOIN documents d ON d.id = m.document_id
             WHERE m.entity_id = e.id AND d.rel_path <> 'garden/tomatoes.md') ORDER BY 1`,
        )
        .pluck()
        .all() as string[];
    const before = onlyTomatoes();
    expect(before.length).toBeGreaterThan(0);
    const others = count('SELECT count(*) FROM entities') - before.length;
    await writeFile(join(dir, 'notes', 'garden/tomatoes.md'), '# Peppers\n\nPeppers need warm nights in August.\n');
    await indexFolder(db, embedder, join(dir, 'notes'));
    const after = onlyTomatoes();
    expect(after.filter((norm) => before.includes(norm))).toEqual([]);
    // The other notes' entities all stay; the new text's are added; nothing unsupported is left.
    expect(count('SELECT count(*) FROM entities')).toBe(others + after.length);
    expect(
      count('SELECT count(*) FROM entities e WHERE NOT EXISTS (SELECT 1 FROM entity_mentions m WHERE m.entity_id = e.id)'),
    ).toBe(0);
    expect(count('SELECT count(*) FROM entity_unsupported_pending')).toBe(0);
  });

  it('treats a rename that keeps the note’s text and title as a move: the same document, at its new path', async () => {
    await indexFolder(db, embedder, join(dir, 'notes'));
    const id = count("SELECT id FROM documents WHERE rel_path = 'garden/tomatoes.md'");
    await writeFile(join(dir, 'notes', 'garden/tomato-growing.md'), must(NOTES['garden/tomatoes.md'], 'the tomatoes note'));
    await unlink(join(dir, 'notes', 'garden/tomatoes.md'));
    const r = await indexFolder(db, embedder, join(dir, 'notes'));
    expect([r.moved, r.removed, r.changed]).toEqual([1, 0, 0]);
    expect(count("SELECT id FROM documents WHERE rel_path = 'garden/tomato-growing.md'")).toBe(id);
    expect(db.prepare('SELECT rel_path FROM documents ORDER BY rel_path').pluck().all()).toEqual([
      'Ada Lovelace.md',
      'engines.md',
      'garden/tomato-growing.md',
    ]);
  });

  it('skips binary, oversized and unreadable files with reasons, and indexes the rest: a Latin-1 note read as such', async () => {
    const root = join(dir, 'notes');
    await writeFile(join(root, 'binary.md'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0x00, 0x01]));
    await writeFile(join(root, 'huge.md'), Buffer.alloc(50 * 1024 * 1024, 'a'));
    await writeFile(join(root, 'latin1.md'), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x74, 0x65, 0x0a]));
    // As root (CI runs as root) permissions cannot make a file unreadable; a note whose target is gone can't be read.
    await symlink(join(root, 'vanished.md'), join(root, 'dangling.md'));
    const r = await indexFolder(db, embedder, root);
    const reasons = Object.fromEntries(r.skipped.map((s) => [s.relPath, s.reason]));
    expect(reasons).toEqual({ 'binary.md': 'binary', 'huge.md': 'too-large', 'dangling.md': 'unreadable' });
    expect(r.readAs).toEqual([{ relPath: 'latin1.md', encoding: 'windows-1252', detail: expect.stringMatching(/^not UTF-8; its bytes look like ISO-8859-1/) }]);
    expect(count("SELECT count(*) FROM chunks WHERE text LIKE '%Café note%'")).toBe(1);
    expect(r.counts.documents).toBe(4);
    expect(count("SELECT count(*) FROM documents WHERE status = 'skipped'")).toBe(r.skipped.length);
  });

  it('resumes a run interrupted between notes without half-written documents', async () => {
    const controller = new AbortController();
    let seen = 0;
    await expect(
      indexFolder(db, embedder, join(dir, 'notes'), {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'extract' && p.current && ++seen === 2) controller.abort(new Error('stop'));
        },
      }),
    ).rejects.toThrow();
    // Whatever was written is whole: every indexed document has its chunks and facts.
    expect(count("SELECT count(*) FROM documents d WHERE status = 'indexed' AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id)")).toBe(0);
    const r = await indexFolder(db, embedder, join(dir, 'notes'));
    expect(r.counts.documents).toBe(3);
    expect(r.unchanged).toBeGreaterThan(0);
    expect(count('SELECT count(*) FROM doc_edges')).toBe(6);
    expect(count('SELECT count(*) FROM graph_pending')).toBe(0);
  });
});

describe('the connection that writes', () => {
  it('keeps savepoint and statement journals in memory (each note is a savepoint; temp files cost a disk write per page)', () => {
    expect(db.pragma('temp_store', { simple: true })).toBe(2);
  });
});

describe('migration 0006 (the unread FCI full-text table goes; the entity sweep reads a list)', () => {
  it('upgrades an index written at schema 5: its FCIs stay, the FTS table goes, a deleted note still takes its FCI vectors, an unsupported entity is still swept', async () => {
    const file = join(dir, 'v5.db');
    const raw = new Database(file);
    for (const m of migrations.filter((m) => m.version <= 5)) raw.exec(m.sql);
    raw.pragma('user_version = 5');
    const doc = raw.prepare("INSERT INTO documents (root, rel_path, status) VALUES ('/r', 'a.md', 'indexed') RETURNING id").pluck().get() as number;
    const chunk = raw
      .prepare("INSERT INTO chunks (document_id, ord, heading_path, text, line_from, line_to, is_code) VALUES (?, 0, '[]', 'Tides rise.', 1, 1, 0) RETURNING id")
      .pluck()
      .get(doc) as number;
    const fci = raw
      .prepare("INSERT INTO fcis (document_id, chunk_id, text, line_from, line_to, extractor) VALUES (?, ?, 'Tides rise.', 1, 1, 'fast') RETURNING id")
      .pluck()
      .get(doc, chunk) as number;
    raw.prepare("INSERT INTO fcis_fts (rowid, seg) VALUES (?, 'tides rise')").run(fci);
    raw.prepare("INSERT INTO embeddings (owner_kind, owner_id, model, dim, vector) VALUES ('fci', ?, 'm', 1, x'00000000')").run(fci);
    // An entity nothing supports, as a run killed before its sweep would leave it: the first sweep after the upgrade still finds it.
    raw.prepare("INSERT INTO entities (name, norm) VALUES ('Stray', 'stray')").run();
    raw.close();

    const up = openDb(file);
    try {
      expect(up.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'fcis_fts'").pluck().get()).toBe(0);
      expect(up.prepare('SELECT count(*) FROM fcis').pluck().get()).toBe(1);
      expect(pruneOrphanEntities(up)).toBe(1);
      expect(up.prepare('SELECT count(*) FROM entities').pluck().get()).toBe(0);
      deleteDocument(up, doc, 'release');
      expect(up.prepare('SELECT count(*) FROM fcis').pluck().get()).toBe(0);
      expect(up.prepare("SELECT count(*) FROM embeddings WHERE owner_kind = 'fci'").pluck().get()).toBe(0);
    } finally {
      up.close();
    }
  });
});
