import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedMissing, type EmbedProgress } from '../../main/engine/embed/embed-missing.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { LociEngine } from '../../main/engine/engine.js';
import { composableFactPaths, composedPathVector } from '../support/fact-paths.js';
import { loadEmbeddings, rowsMissingEmbeddings, type OwnerKind } from '../../main/engine/store/embeddings.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-embed-missing-'));
  const notes = join(dir, 'notes');
  await mkdir(notes);
  // Two one-passage notes ending with the same sign-off (as reports of one news site do), and a note of
  // several sections.
  await writeFile(join(notes, 'alder.md'), '# Alder Creek\n\nAlder Creek runs past the old mill into the lake. Tell us what you think.\n');
  await writeFile(join(notes, 'birch.md'), '# Birch Hill\n\nBirch Hill is the highest point of the county. Tell us what you think.\n');
  await writeFile(
    join(notes, 'mill.md'),
    '# The old mill\n\nThe mill was built in 1820.\n\n## Today\n\nIt houses a bakery and a small museum.\n\n## Access\n\nA footpath leads there from Alder Creek.\n',
  );
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const KINDS: OwnerKind[] = ['doc', 'chunk', 'fci', 'mm', 'entity'];

describe('embedMissing', () => {
  it('embeds each distinct text once: a one-passage note shares its passage vector, a repeated line is embedded once', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), embedder: 'glove' });
    try {
      await engine.library.index(join(dir, 'notes'));
      const inner = engine.embedder;
      const sent: string[] = [];
      // The built-in embedder under another id, so every row lacks a vector for it; it records what it is asked.
      const recording: Embedder = {
        id: 'recording@1',
        dim: inner.dim,
        embed: async (texts) => {
          sent.push(...texts);
          return inner.embed(texts);
        },
      };
      const rows = KINDS.flatMap((kind) => rowsMissingEmbeddings(engine.db, kind, recording.id).map(([id, text]) => ({ kind, id, text })));
      const progress: EmbedProgress[] = [];
      const written = await embedMissing(engine.db, recording, { onProgress: (p) => progress.push(p) });

      // A fact's path under a heading is composed from its parent's path and the fact, not sent to the model.
      const composed = composableFactPaths(engine.db);
      expect(composed.size).toBeGreaterThan(0);
      const sentRows = rows.filter((r) => !(r.kind === 'mm' && composed.has(r.id)));
      expect(written).toBe(rows.length);
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent.length).toBe(new Set(sentRows.map((r) => r.text)).size);
      expect(sent.length).toBeLessThan(sentRows.length);
      // Progress counts rows; the share of work done (for the ETA) rises to all of it.
      expect(progress[0]).toEqual({ done: 0, total: rows.length, work: 0 });
      expect(progress.at(-1)).toEqual({ done: rows.length, total: rows.length, work: 1 });
      for (let i = 1; i < progress.length; i++) expect(progress[i]!.work).toBeGreaterThanOrEqual(progress[i - 1]!.work);
      // A one-passage note is embedded by its passage's own text: the same vector.
      const docText = (id: number) => rows.find((r) => r.kind === 'doc' && r.id === id)!.text;
      for (const title of ['Alder Creek', 'Birch Hill']) {
        const doc = engine.db.prepare('SELECT d.id doc, c.id chunk FROM documents d JOIN chunks c ON c.document_id = d.id WHERE d.title = ?').get(title) as { doc: number; chunk: number };
        expect(docText(doc.doc)).toBe(rows.find((r) => r.kind === 'chunk' && r.id === doc.chunk)!.text);
      }
      expect(rows.filter((r) => r.kind === 'fci' && r.text === 'Tell us what you think.')).toHaveLength(2);
      // Every row sent has the vector its own text gets; a composed path, 0.7 of its parent's and its fact's, normalised.
      const storedOf = (kind: OwnerKind) => new Map(loadEmbeddings(engine.db, kind, recording.id).map((e) => [e.id, e.vector]));
      for (const kind of KINDS) {
        const stored = storedOf(kind);
        expect(stored.size).toBe(rows.filter((r) => r.kind === kind).length);
        const mine = sentRows.filter((r) => r.kind === kind);
        const expected = await inner.embed(mine.map((r) => r.text));
        mine.forEach((r, i) => expect([...stored.get(r.id)!], `${kind} ${r.id}`).toEqual([...expected[i]!]));
      }
      const paths = storedOf('mm');
      const facts = storedOf('fci');
      for (const [id, { parent, fci }] of composed) {
        const expected = composedPathVector(paths.get(parent)!, facts.get(fci)!);
        paths.get(id)!.forEach((x, k) => expect(x).toBeCloseTo(expected[k]!, 6));
      }
    } finally {
      await engine.close();
    }
  });

  it('a run resumed after the notes were embedded takes their vectors for the passages of one-passage notes instead of embedding them again', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'resume.db'), embedder: 'glove' });
    try {
      await engine.library.index(join(dir, 'notes'));
      const inner = engine.embedder;
      const sent: string[] = [];
      const recording: Embedder = {
        id: 'resumed@1',
        dim: inner.dim,
        embed: async (texts) => {
          sent.push(...texts);
          return inner.embed(texts);
        },
      };
      // A first run stopped once the notes had their vectors, before their passages.
      await embedMissing(engine.db, recording, { kinds: ['doc'] });
      const docTexts = new Set(sent);
      sent.length = 0;
      const chunks = rowsMissingEmbeddings(engine.db, 'chunk', recording.id);
      const shared = chunks.filter(([, text]) => docTexts.has(text));
      expect(shared.length).toBe(2); // Alder Creek's and Birch Hill's single passages

      await embedMissing(engine.db, recording, { kinds: ['chunk'] });

      expect(sent.length).toBe(chunks.length - shared.length);
      for (const [, text] of shared) expect(sent).not.toContain(text);
      const docVectors = new Map(loadEmbeddings(engine.db, 'doc', recording.id).map((e) => [e.id, e.vector]));
      const chunkVectors = new Map(loadEmbeddings(engine.db, 'chunk', recording.id).map((e) => [e.id, e.vector]));
      expect(chunkVectors.size).toBe(chunks.length);
      for (const [chunkId] of shared) {
        const { docId } = engine.db.prepare('SELECT document_id docId FROM chunks WHERE id = ?').get(chunkId) as { docId: number };
        expect([...chunkVectors.get(chunkId)!]).toEqual([...docVectors.get(docId)!]);
      }
    } finally {
      await engine.close();
    }
  });
});
