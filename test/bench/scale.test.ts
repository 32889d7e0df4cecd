import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatScale, readCrudQuestions, readNews, runScale } from '../../main/bench/scale.js';

const CRUD = join(import.meta.dirname, '../../../shared/data/crud');
const have = existsSync(join(CRUD, 'news.jsonl.gz'));
if (!have) console.warn(`skipping bench-scale tests: ${CRUD} not found`);

describe.skipIf(!have)('bench-scale (small sizes; the 1k/10k/50k figures come from `npm run bench:scale`)', () => {
  it('streams the first n articles from the gzipped corpus and reads the question sets', async () => {
    const news = await readNews(join(CRUD, 'news.jsonl.gz'), 5);
    expect(news.map((n) => n.id)).toEqual([0, 1, 2, 3, 4]);
    expect(news[0]!.text.length).toBeGreaterThan(100);
    const qs = readCrudQuestions([join(CRUD, 'questions_1doc_dev.json')], 4);
    expect(qs).toHaveLength(4);
    expect(qs.every((q) => /\p{Script=Han}/u.test(q))).toBe(true);
  });

  it('measures every method at every size and shows the growth', async () => {
    const rows = await runScale({
      newsFile: join(CRUD, 'news.jsonl.gz'),
      questionFiles: [join(CRUD, 'questions_1doc_dev.json')],
      sizes: [60, 30],
      methods: ['bm25', 'pgr', 'loci', 'minisearch'],
      queries: 3,
      k: 5,
    });
    expect(rows.map((r) => `${r.size}:${r.method}`)).toEqual(['30:bm25', '30:pgr', '30:loci', '30:minisearch', '60:bm25', '60:pgr', '60:loci', '60:minisearch']);
    for (const r of rows) {
      expect(r.p50Ms).toBeGreaterThan(0);
      expect(r.p95Ms).toBeGreaterThanOrEqual(r.p50Ms);
      expect(r.rssMb).toBeGreaterThan(10);
    }
    // The Loci index grows cumulatively; a peer builds its own index per size.
    const loci = rows.filter((r) => r.method === 'loci');
    expect(loci[1]!.indexSeconds).toBeGreaterThan(loci[0]!.indexSeconds);
    const table = formatScale(rows);
    expect(table).toMatch(/\| p50 ms\s+\| 30 docs \| 60 docs \| ×2 docs → \|/);
    expect(table.split('\n').filter((l) => l.startsWith('| loci'))).toHaveLength(4);
  }, 180_000);
});
