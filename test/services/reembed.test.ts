import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LociEngine } from '../../main/engine/engine.js';

const samples = resolve(import.meta.dirname, '../../resources/sample-notes');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-reembed-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('an index made by another embedder', () => {
  it('is re-embedded (and its graph rebuilt) when the engine opens, so dense and graph methods still answer', async () => {
    const dbPath = join(dir, 'index.db');
    const first = await LociEngine.open({ dbPath });
    await first.library.index(samples);
    const model = first.embedder.id;
    // Make it look like an index built by an older embedder: its vectors are not this embedder's.
    first.db.prepare("UPDATE embeddings SET model = 'old-embedder@0'").run();
    first.db.prepare("UPDATE settings SET value = '\"old-embedder@0\"' WHERE key = 'graph_model'").run();
    first.db.prepare('DELETE FROM doc_edges').run();
    await first.close();

    const engine = await LociEngine.open({ dbPath });
    try {
      const count = (sql: string) => engine.db.prepare(sql).pluck().get(model) as number;
      expect(count("SELECT count(*) FROM embeddings WHERE model = ? AND owner_kind = 'doc'")).toBe(12);
      expect(count("SELECT count(*) FROM fcis f WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner_kind = 'fci' AND e.owner_id = f.id AND e.model = ?)")).toBe(0);
      expect(engine.views.stats().counts.docEdges).toBe(36);
      for (const method of ['dense', 'hig', 'pgr'] as const) {
        const a = await engine.answers.ask('Where was the founder of Kestrel Coffee Works born?', { method, k: 5 });
        expect(a.contexts.length, method).toBeGreaterThan(0);
      }
    } finally {
      await engine.close();
    }
  });
});
