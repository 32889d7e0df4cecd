import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadDataset } from '../../main/engine/bench/datasets.js';
import { runBench } from '../../main/engine/bench/runner.js';
import { DEFAULT_METHOD } from '../../main/engine/retrieve/index.js';

// The rule the default was chosen by: never below BM25 on any dev set. Runs the smallest real dev
// sets (10 questions each, ~100–200 paragraphs) so it finishes in well under a minute.
const DATA = join(import.meta.dirname, '../../../shared/data');
const SETS = ['hotpotqa/dev_distractor_10.jsonl', '2wiki/dev_10.jsonl', 'musique/dev_answerable_10.jsonl'];
const have = SETS.every((s) => existsSync(join(DATA, s)));
if (!have) console.warn(`skipping the default-vs-BM25 guard: dev sets not found under ${DATA}`);

describe.skipIf(!have)(`the default method (${DEFAULT_METHOD}) against BM25`, () => {
  for (const set of SETS) {
    it(`recall@5 on ${set} is not below BM25's`, async () => {
      const file = join(DATA, set);
      const report = await runBench(loadDataset(file), file, { methods: ['bm25', DEFAULT_METHOD], ks: [5] });
      const [bm25, def] = report.results;
      expect(bm25!.method).toBe('bm25');
      expect(def!.errors).toBe(0);
      expect(def!.recall[5]).toBeGreaterThanOrEqual(bm25!.recall[5]!);
    }, 120_000);
  }
});
