// The index-time estimate: a probe runs the real index pipeline on a sample of a real notes folder, per
// embedder (the built-in GloVe, and a transformers.js model folder built here: a tiny ONNX encoder with a
// real WordPiece tokenizer), and leaves the user's index and notes as they were. No timing thresholds:
// what is checked is that the numbers exist, add up, and come from the sample they say.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';
import { extrapolate, measureLibrary, probeIndexTime, sampleOrder } from '../../main/engine/index/estimate.js';
import { libraryFingerprint } from '../../main/engine/services/estimate-service.js';
import { loadCatalogue } from '../../main/engine/llm/models/catalogue.js';
import { writeSentenceTransformersConfig } from '../../main/engine/embed/sentence-transformers-folder.js';
import { buildTinyBertOnnx } from '../embed/build-tiny-onnx.js';
import { writeTinyTokenizer } from '../../e2e/support/tiny-tokenizer.js';
import { FIXTURE_NOTES, SAMPLE_NOTES } from '../fixtures/paths.js';

let dir: string;
let notes: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-estimate-'));
  notes = join(dir, 'notes');
  await cp(SAMPLE_NOTES, notes, { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A transformers.js model folder laid out as `loci models pull` writes the catalogue's MiniLM. */
async function tinyModel(): Promise<string> {
  const folder = join(dir, 'models', 'tiny-minilm');
  await mkdir(join(folder, 'onnx'), { recursive: true });
  const { vocabSize } = writeTinyTokenizer(folder);
  await writeFile(join(folder, 'onnx', 'model_quantized.onnx'), buildTinyBertOnnx({ vocabSize, dim: 24 }).onnx);
  writeSentenceTransformersConfig(folder, loadCatalogue().find((m) => m.id === 'all-minilm-l6-v2')!.embedding!);
  return `transformers:${folder}`;
}

async function tree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())) {
    const p = join(f.parentPath, f.name);
    out[p] = await readFile(p, 'utf8');
  }
  return out;
}

describe('sample order', () => {
  it('starts at the median note and spreads every prefix over the sizes, taking each note once', () => {
    const files = Array.from({ length: 37 }, (_, i) => ({ size: (i * 7919) % 1000, i }));
    const order = sampleOrder(files);
    expect(order).toHaveLength(37);
    expect(new Set(order.map((f) => f.i)).size).toBe(37);
    const sizes = [...files].map((f) => f.size).sort((a, b) => a - b);
    expect(order[0]!.size).toBe(sizes[18]);
    // The first eight reach both the smallest and the largest eighth of the notes.
    const first = order.slice(0, 8).map((f) => f.size);
    expect(Math.min(...first)).toBeLessThanOrEqual(sizes[4]!);
    expect(Math.max(...first)).toBeGreaterThanOrEqual(sizes[32]!);
  });
});

describe('probe', () => {
  it('indexes a sample of the folder with the real pipeline and extrapolates by size', async () => {
    const library = await measureLibrary([{ root: notes }]);
    expect(library.notes).toBeGreaterThan(5);
    const before = await tree(notes);
    const probe = await probeIndexTime('glove', library, { budgetSeconds: 1 });
    expect(probe.sampleNotes).toBeGreaterThanOrEqual(2);
    expect(probe.sampleNotes).toBeLessThanOrEqual(library.notes);
    expect(probe.sampleBytes).toBeGreaterThan(0);
    expect(probe.secondsPerByte).toBeGreaterThan(0);
    expect(probe.probeSeconds).toBeGreaterThanOrEqual(probe.loadSeconds);
    const seconds = extrapolate(probe, library);
    expect(seconds).toBeCloseTo(probe.loadSeconds + probe.setupSeconds + probe.secondsPerByte * library.bytes, 9);
    // Twice the text, twice the size-bound part; an empty library costs nothing.
    expect(extrapolate(probe, { notes: library.notes * 2, bytes: library.bytes * 2 }) - seconds).toBeCloseTo(probe.secondsPerByte * library.bytes, 9);
    expect(extrapolate(probe, { notes: 0, bytes: 0 })).toBe(0);
    // The notes were copied, never written.
    expect(await tree(notes)).toEqual(before);
  });

  it('keeps a folder scope: left-out notes are neither counted nor sampled', async () => {
    const all = await measureLibrary([{ root: notes }]);
    const some = await measureLibrary([{ root: notes, excluded: (rel, isDir) => !isDir && rel.startsWith('people/') }]);
    expect(some.notes).toBeLessThan(all.notes);
    expect(some.files.every((f) => !f.relPath.startsWith('people/'))).toBe(true);
  });
});

describe('library.estimate over an engine', () => {
  let engine: LociEngine;
  afterEach(async () => {
    await engine?.close();
  });

  it('estimates each embedder for the library and leaves the index as it was', async () => {
    engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
    await engine.library.index(notes);
    const counts = engine.views.stats().counts;
    const rows = () => (engine.db.prepare('SELECT count(*) AS n FROM embeddings').get() as { n: number }).n;
    const vectors = rows();
    const tiny = await tinyModel();

    const estimates = [];
    for (const spec of ['glove', tiny]) estimates.push(await engine.estimates.estimate(spec));
    for (const e of estimates) {
      expect(e.seconds).toBeGreaterThan(0);
      expect(e.notes).toBe(counts.documents);
      expect(e.probe.sampleNotes).toBeGreaterThan(0);
      expect(e.cached).toBe(false);
    }
    expect(estimates.map((e) => e.embedder)).toEqual(['glove', tiny]);
    // No row of the probe reached the user's index: notes, passages, vectors, graph.
    expect(engine.views.stats().counts).toEqual(counts);
    expect(rows()).toBe(vectors);

    // Asked again: the probe is reused (same embedder, same library), and remade on request.
    const again = await engine.estimates.estimate('glove');
    expect(again.cached).toBe(true);
    expect(again.measuredAt).toBe(estimates[0]!.measuredAt);
    expect(again.seconds).toBe(estimates[0]!.seconds);
    const fresh = await engine.estimates.estimate('glove', { refresh: true });
    expect(fresh.cached).toBe(false);

    // Kept in the index's settings: another process on this index reuses it.
    await engine.close();
    engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
    expect((await engine.estimates.estimate(tiny)).cached).toBe(true);
  });

  it('estimates a folder not in the library, and says so when the library is empty', async () => {
    engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
    await expect(engine.estimates.estimate('glove')).rejects.toThrow(/no folder yet/);
    const e = await engine.estimates.estimate('glove', { root: FIXTURE_NOTES });
    expect(e.notes).toBeGreaterThan(0);
    expect(engine.views.stats().counts.documents).toBe(0);
    // An embedder that does not load fails the estimate with its reason, and nothing is kept.
    await expect(engine.estimates.estimate('transformers:/no/such/model', { root: FIXTURE_NOTES })).rejects.toThrow();
  });
});

describe('library fingerprint', () => {
  it('is the same for a few edits and changes with the folders or a marked change of size', () => {
    const base = libraryFingerprint(['/a', '/b'], 1_000_000);
    expect(libraryFingerprint(['/b', '/a'], 1_020_000)).toBe(base);
    expect(libraryFingerprint(['/a'], 1_000_000)).not.toBe(base);
    expect(libraryFingerprint(['/a', '/b'], 2_000_000)).not.toBe(base);
  });
});
