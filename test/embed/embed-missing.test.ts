import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedMissing, type EmbedLedger, type EmbedProgress } from '../../main/engine/embed/embed-missing.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { LociEngine } from '../../main/engine/engine.js';
import { composablePaths, composedPathVector } from '../support/fact-paths.js';
import { estimatedTokens } from '../../main/engine/embed/estimated-tokens.js';
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

/** `inner` under another id, so every row lacks a vector for it; what it is asked to embed goes to `sent`. */
function recordingEmbedder(inner: Embedder, id: string, sent: string[]): Embedder {
  return {
    id,
    dim: inner.dim,
    embed: async (texts) => {
      sent.push(...texts);
      return inner.embed(texts);
    },
  };
}

describe('embedMissing', () => {
  it('embeds each distinct text once: a one-passage note shares its passage vector, a repeated line is embedded once', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), embedder: 'glove' });
    try {
      await engine.library.index(join(dir, 'notes'));
      const inner = engine.embedder;
      const sent: string[] = [];
      const recording = recordingEmbedder(inner, 'recording@1', sent);
      const rows = KINDS.flatMap((kind) => rowsMissingEmbeddings(engine.db, kind, recording.id).map(([id, text]) => ({ kind, id, text })));
      const progress: EmbedProgress[] = [];
      const ledger: EmbedLedger = {};
      const written = await embedMissing(engine.db, recording, { onProgress: (p) => progress.push(p), ledger });

      // A path under a parent is composed from the parent's path and the fact it states (or its own text,
      // a heading: only that is sent), and a note of several passages from its passages' vectors.
      const composed = composablePaths(engine.db);
      const ownTexts = new Set([...composed.values()].filter((p) => p.fci === null).map((p) => p.text));
      expect(ownTexts.size).toBeGreaterThan(0);
      expect(composed.size).toBeGreaterThan(ownTexts.size);
      const mill = engine.db.prepare("SELECT id FROM documents WHERE title = 'The old mill'").get() as { id: number };
      const millPassages = engine.db.prepare("SELECT c.id, d.title || ' ' || c.text text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.id = ? AND c.is_code = 0 ORDER BY c.ord").all(mill.id) as { id: number; text: string }[];
      expect(millPassages.length).toBeGreaterThan(1);
      const sentRows = rows.filter((r) => !(r.kind === 'mm' && composed.has(r.id)) && !(r.kind === 'doc' && r.id === mill.id));
      expect(written).toBe(rows.length);
      expect(new Set(sent).size).toBe(sent.length);
      expect(new Set(sent)).toEqual(new Set([...sentRows.map((r) => r.text), ...ownTexts]));
      expect(sent.length).toBeLessThan(sentRows.length + ownTexts.size);
      // The ledger (what `loci bench-index` reports) names exactly what was sent, and what was derived.
      expect(Object.values(ledger).flatMap((k) => k.embedded).sort()).toEqual([...sent].sort());
      expect(ledger.doc!.derived).toBe(1);
      expect(ledger.mm!.derived).toBe(composed.size);
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
      // Every row sent has the vector its own text gets; a composed path, 0.7 of its parent's and its fact's (or own text's), normalised.
      const storedOf = (kind: OwnerKind) => new Map(loadEmbeddings(engine.db, kind, recording.id).map((e) => [e.id, e.vector]));
      for (const kind of KINDS) {
        const stored = storedOf(kind);
        expect(stored.size).toBe(rows.filter((r) => r.kind === kind).length);
        const mine = sentRows.filter((r) => r.kind === kind);
        const expected = await inner.embed(mine.map((r) => r.text));
        mine.forEach((r, i) => expect([...stored.get(r.id)!], `${kind} ${r.id}`).toEqual([...expected[i]!]));
      }
      // The note's vector: its passages' vectors, each weighted by its tokens (these are short: all of them), normalised.
      const passageVectors = storedOf('chunk');
      const weighted = new Float32Array(inner.dim);
      for (const p of millPassages) passageVectors.get(p.id)!.forEach((x, k) => (weighted[k]! += estimatedTokens(p.text, 512) * x));
      const norm = Math.hypot(...weighted);
      storedOf('doc').get(mill.id)!.forEach((x, k) => expect(x).toBeCloseTo(weighted[k]! / norm, 6));
      const paths = storedOf('mm');
      const facts = storedOf('fci');
      for (const [id, { parent, fci, text }] of composed) {
        const expected = composedPathVector(paths.get(parent)!, fci === null ? (await inner.embed([text]))[0]! : facts.get(fci)!);
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
      const recording = recordingEmbedder(inner, 'resumed@1', sent);
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

  it('gives a fact the vector pooled for its span in its passage’s pass, embeds alone the facts of a passage with one it cannot place, and drops one rewritten meanwhile', async () => {
    const engine = await LociEngine.open({ dbPath: join(dir, 'pooled.db'), embedder: 'glove' });
    try {
      await engine.library.index(join(dir, 'notes'));
      const db = engine.db;
      // A fact in other words than its passage, as a model writes them: it cannot be placed.
      const alder = db.prepare("SELECT c.id chunk, c.document_id doc FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.title = 'Alder Creek'").get() as { chunk: number; doc: number };
      const model = db
        .prepare("INSERT INTO fcis (document_id, chunk_id, text, line_from, line_to, extractor) VALUES (?, ?, 'A stream flows beside a former mill.', 3, 3, 'test') RETURNING id")
        .pluck()
        .get(alder.doc, alder.chunk) as number;
      const inner = engine.embedder;
      const sent: string[] = [];
      const spansOf = new Map<string, string[]>();
      // A span's vector is its words' (how a model pools is the transformers embedder's test).
      const pooling: Embedder = {
        ...recordingEmbedder(inner, 'pooling@1', sent),
        embedWithSpans: async (items) => {
          const out = [];
          for (const { text, spans } of items) {
            spansOf.set(text, spans.map(([a, b]) => text.slice(a, b)));
            const [vector, ...pooled] = await inner.embed([text, ...spans.map(([a, b]) => text.slice(a, b))]);
            out.push({ vector: vector!, spans: pooled });
          }
          return out;
        },
      };
      const facts = db.prepare('SELECT id, text, chunk_id chunk FROM fcis').all() as { id: number; text: string; chunk: number }[];
      const rewritten = facts.find((f) => f.text === 'It houses a bakery and a small museum.')!;
      let first = true;
      // The write of the first batch of passages finds one fact rewritten by an index run meanwhile.
      const lock = async (write: () => Promise<void>) => {
        if (first) db.prepare('UPDATE fcis SET text = ? WHERE id = ?').run('It houses a café now.', rewritten.id);
        first = false;
        await write();
      };
      const progress: EmbedProgress[] = [];
      await embedMissing(db, pooling, { kinds: ['chunk', 'fci'], lock, onProgress: (p) => progress.push(p) });
      // The share of work rises throughout, and is all done at the end, pooled facts counted with their passages.
      for (let i = 1; i < progress.length; i++) expect(progress[i]!.work).toBeGreaterThanOrEqual(progress[i - 1]!.work);
      expect(progress.at(-1)).toMatchObject({ done: progress[0]!.total, work: 1 });
      expect(progress.some((p) => p.work > 0 && p.work < 1)).toBe(true);

      const stored = new Map(loadEmbeddings(db, 'fci', pooling.id).map((e) => [e.id, e.vector]));
      // The unplaceable fact's passage has all its facts embedded alone (a passage's are pooled all or
      // none), and the rewritten one by the text read at the start; every other fact was pooled.
      const alone = facts.filter((f) => f.chunk === alder.chunk);
      expect(alone.length).toBeGreaterThan(1);
      expect(new Set(sent)).toEqual(new Set([...alone.map((f) => f.text), rewritten.text]));
      for (const f of alone) expect([...stored.get(f.id)!]).toEqual([...(await inner.embed([f.text]))[0]!]);
      // Its pass asked for no spans: none would be kept.
      const alderPassage = db.prepare("SELECT d.title || ' ' || c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ?").pluck().get(alder.chunk) as string;
      expect(spansOf.get(alderPassage)).toEqual([]);
      for (const f of facts) {
        if (f.chunk === alder.chunk || f.id === rewritten.id) continue;
        const passage = db.prepare("SELECT d.title || ' ' || c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ?").pluck().get(f.chunk) as string;
        expect(spansOf.get(passage), f.text).toContain(f.text);
        // The span's vector less half its passage's, normalised.
        const [span, whole] = await inner.embed([f.text, passage]);
        const expected = span!.map((x, k) => x - 0.5 * whole![k]!);
        const norm = Math.hypot(...expected);
        stored.get(f.id)!.forEach((x, k) => expect(x).toBeCloseTo(expected[k]! / norm, 6));
      }
      // Neither its pooled vector nor the one of its old text is written: the run that rewrote it embeds it.
      expect(stored.has(rewritten.id)).toBe(false);
      expect(stored.size).toBe(facts.length - 1);
      expect(alone.map((f) => f.id)).toContain(model);
    } finally {
      await engine.close();
    }
  });
});
