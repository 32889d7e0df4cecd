import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareIndex } from '../../main/bench/runner.js';
import type { BenchParagraph } from '../../main/bench/dataset.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { rowsMissingEmbeddings, type OwnerKind } from '../../main/engine/store/embeddings.js';
import { composablePaths } from '../support/fact-paths.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-fact-paths-later-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two notes of the same name (two copies of a page) share a fact path: they meet in super nodes.
const corpus: BenchParagraph[] = [
  { title: 'Alder Creek', text: 'Alder Creek runs past the old mill into Lake Varna. The creek freezes every winter.' },
  { title: 'Lake Varna', text: 'Lake Varna is fed by Alder Creek. The lake holds pike.' },
  { title: 'The old mill', text: 'The old mill on Alder Creek was built in 1820. It houses a bakery today.' },
  { title: 'Birch Hill', text: 'Birch Hill is the highest point of the county. A footpath leads there from the old mill.' },
  { title: 'County museum', text: 'The county museum opens at nine every morning. It shows the first millstone.' },
  { title: 'County museum', text: 'The county museum opens at nine every morning. Entry is free on Sundays.' },
];

describe('a bench that runs no PG-RAG method', () => {
  it('leaves the fact paths unembedded for a model embedder, and a later run with pgr embeds them and builds the pseudo-graph', async () => {
    const glove = await createStaticEmbedder();
    const texts: string[] = [];
    // The built-in embedder's vectors under another id: to the indexer a model's, embedded after the notes are written.
    const model: Embedder = { id: 'model@1', dim: glove.dim, embed: async (t) => (texts.push(...t), glove.embed(t)) };
    const dbFile = join(dir, 'kept.db');
    const missing = (db: Parameters<typeof rowsMissingEmbeddings>[0], kind: OwnerKind) => rowsMissingEmbeddings(db, kind, model.id).length;
    const superNodes = (db: Parameters<typeof rowsMissingEmbeddings>[0]) => (db.prepare('SELECT count(*) n FROM super_nodes').get() as { n: number }).n;

    const first = await prepareIndex(corpus, model, { dbFile, methods: ['bm25', 'hig', 'ppr', 'loci'] });
    try {
      const paths = first.ctx.db.prepare('SELECT count(*) n FROM mm_nodes').get() as { n: number };
      expect(paths.n).toBeGreaterThan(0);
      expect(missing(first.ctx.db, 'mm')).toBe(paths.n);
      for (const kind of ['doc', 'chunk', 'fci', 'entity'] as const) expect(missing(first.ctx.db, kind), kind).toBe(0);
      expect(superNodes(first.ctx.db)).toBe(0);
    } finally {
      first.close();
    }
    const before = texts.length;

    const second = await prepareIndex(corpus, model, { dbFile, methods: ['pgr'] });
    try {
      for (const kind of ['doc', 'chunk', 'fci', 'entity', 'mm'] as const) expect(missing(second.ctx.db, kind), kind).toBe(0);
      // Only the fact paths were embedded now: roots by their path, the rest composed from their parent's
      // vector and their fact's (or their own text's, sent alone); and the pseudo-graph is the one a
      // single full run builds.
      const composed = composablePaths(second.ctx.db);
      const paths = second.ctx.db.prepare('SELECT id, path_text FROM mm_nodes').all() as { id: number; path_text: string }[];
      expect(composed.size).toBeGreaterThan(0);
      const ownTexts = [...composed.values()].filter((p) => p.fci === null).map((p) => p.text);
      expect(new Set(texts.slice(before))).toEqual(new Set([...paths.filter((p) => !composed.has(p.id)).map((p) => p.path_text), ...ownTexts]));
      const whole = await prepareIndex(corpus, model, { dbFile: join(dir, 'whole.db'), methods: ['pgr'] });
      try {
        expect(superNodes(whole.ctx.db)).toBeGreaterThan(0);
        expect(superNodes(second.ctx.db)).toBe(superNodes(whole.ctx.db));
      } finally {
        whole.close();
      }
    } finally {
      second.close();
    }
  }, 60_000);
});
