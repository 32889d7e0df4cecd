import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatIndexBench, runIndexBench, runIndexBenchRounds } from '../../main/bench/indexing.js';
import { warmEmbedder } from '../../main/bench/embed-floor.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { LociEngine } from '../../main/engine/engine.js';
import { openDb } from '../../main/engine/store/db.js';
import { FIXTURE_NOTES } from '../fixtures/paths.js';

/** The passage texts Loci embeds (a chunk's note title, a space, its text), counted straight from an index of the folder. */
async function distinctPassageTexts(folder: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-floor-'));
  try {
    const engine = await LociEngine.open({ dbPath: join(dir, 'index.db'), embedder: 'glove' });
    await engine.library.index(folder);
    await engine.close();
    const db = openDb(join(dir, 'index.db'), { readonly: true });
    const { n } = db.prepare("SELECT COUNT(DISTINCT COALESCE(d.title, '') || ' ' || c.text) AS n FROM chunks c JOIN documents d ON d.id = c.document_id").get() as { n: number };
    db.close();
    return n;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('loci bench-index: the embedding floor', () => {
  it('embeds each distinct passage text once and reports the index time over it, with the cost of each kind', async () => {
    const r = await runIndexBench(FIXTURE_NOTES, { embedder: 'glove', peers: false, oneNote: false });
    const json = JSON.parse(JSON.stringify(r)) as typeof r;

    expect(json.embedFloor.texts).toBe(await distinctPassageTexts(FIXTURE_NOTES));
    expect(json.embedFloor.texts).toBeGreaterThan(0);
    expect(json.embedFloor.tokens).toBeGreaterThan(json.embedFloor.texts);
    expect(json.embedFloor.seconds).toBeGreaterThan(0);
    expect(json.embedFloorRatio).toBeCloseTo(json.fullSeconds / json.embedFloor.seconds, 6);
    // The built-in embedder's index is the fast one: no second index to compare with.
    expect(json.fastSeconds).toBeNull();
    expect(json.fastRatio).toBeNull();

    // Every kind, in the order the index embeds them; a text is counted under the first kind that has it.
    expect(json.embedKinds.map((k) => k.kind)).toEqual(['chunk', 'doc', 'fci', 'entity', 'mm']);
    const passages = json.embedKinds.find((k) => k.kind === 'chunk')!;
    expect(passages.distinct).toBe(json.embedFloor.texts);
    expect(passages.rows).toBe(json.counts.chunks);
    expect(json.embedKinds.find((k) => k.kind === 'mm')!.rows).toBe(json.counts.mindMapNodes);
    // The built-in embedder sums a path's words exactly: nothing is composed.
    expect(json.embedKinds.every((k) => k.composed === 0)).toBe(true);
    for (const k of json.embedKinds) {
      expect(k.embedded).toBeLessThanOrEqual(k.distinct);
      expect(k.distinct).toBeLessThanOrEqual(k.rows);
      expect(k.tokens >= k.embedded).toBe(true);
    }

    expect(json.embedWarmUpSeconds).toBeGreaterThan(0);
    expect(formatIndexBench(r)).toMatch(/ratio to embedding floor\s+\d+\.\d\d× {2}\(both on a model warmed for \d+\.\d s first\)/);
  }, 60_000);

  it('repeats the whole run when asked and reports the median round, with every round’s ratio', async () => {
    const r = await runIndexBenchRounds(FIXTURE_NOTES, { embedder: 'glove', peers: false, oneNote: false }, 3);
    const rounds = r.floorRounds!;
    expect(rounds.ratios).toHaveLength(3);
    expect(rounds.ratios.every((x) => x > 0)).toBe(true);
    const sorted = [...rounds.ratios].sort((a, b) => a - b);
    expect([rounds.min, rounds.median, rounds.max]).toEqual(sorted);
    // The report is the median round's own: its ratio is its index time over its floor.
    expect(r.embedFloorRatio).toBe(rounds.median);
    expect(r.embedFloorRatio).toBeCloseTo(r.fullSeconds / r.embedFloor.seconds, 6);
    expect(formatIndexBench(r)).toMatch(/over 3 rounds\s+median \d+\.\d\d× \[\d+\.\d\d–\d+\.\d\d\]/);
    await expect(runIndexBenchRounds(FIXTURE_NOTES, {}, 0)).rejects.toThrow(/--rounds must be a whole number/);
  }, 120_000);

  it('warms the model on at most 100 passage-sized pieces of the notes, spread over all of them', async () => {
    const sent: string[][] = [];
    const embedder: Embedder = { id: 'rec', dim: 1, embed: async (texts) => (sent.push(texts), texts.map(() => new Float32Array([1]))) };
    const notes = Array.from({ length: 40 }, (_, i) => `note ${i} `.repeat(3000));
    expect(await warmEmbedder(embedder, notes)).toBeGreaterThanOrEqual(0);
    expect(sent).toHaveLength(1);
    const texts = sent[0]!;
    expect(texts).toHaveLength(100);
    expect(texts.every((t) => t.length > 0 && t.length <= 1000)).toBe(true);
    // From the first note to the last, not the first notes alone.
    expect(texts[0]).toMatch(/^note 0 /);
    expect(texts.at(-1)).toMatch(/note 39 /);
  });
});
