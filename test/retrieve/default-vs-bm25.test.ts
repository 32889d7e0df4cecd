import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadDataset, type BenchDataset } from '../../main/engine/bench/datasets.js';
import { docsQaFolder, loadDocsQa, readDocsQa } from '../../main/engine/bench/docs-qa.js';
import { runBench } from '../../main/engine/bench/runner.js';
import { DEV_SETS_DIR } from '../../main/engine/bench/suite.js';
import { DEFAULT_METHOD } from '../../main/engine/retrieve/index.js';

// The rule the default was chosen by: never below BM25 on any dev set. Runs the smallest real dev
// sets — 10 questions each over ~100–200 Wikipedia paragraphs, and our questions over the Foam and
// SilverBullet documentation notes (86 and 225 notes) — so it finishes in about a minute.
const DATA = join(import.meta.dirname, '../../../shared/data');
const SETS = ['hotpotqa/dev_distractor_10.jsonl', '2wiki/dev_10.jsonl', 'musique/dev_answerable_10.jsonl'];
const DOCS = ['foam.json', 'silverbullet.json'];

const cases: { name: string; file: string; load: () => BenchDataset }[] = [
  ...SETS.filter((s) => existsSync(join(DATA, s))).map((s) => ({ name: s, file: join(DATA, s), load: () => loadDataset(join(DATA, s)) })),
  ...DOCS.map((d) => join(DEV_SETS_DIR, d))
    .filter((f) => existsSync(docsQaFolder(readDocsQa(f), { sharedData: DATA })))
    .map((f) => ({ name: `docs-QA ${f.split('/').pop()}`, file: f, load: () => loadDocsQa(f, { sharedData: DATA }) })),
];
if (cases.length < SETS.length + DOCS.length) console.warn(`the default-vs-BM25 guard runs ${cases.length} of ${SETS.length + DOCS.length} dev sets: the others are not under ${DATA}`);

describe.skipIf(cases.length === 0)(`the default method (${DEFAULT_METHOD}) against BM25`, () => {
  for (const c of cases) {
    it(`recall@5 on ${c.name} is not below BM25's`, async () => {
      const report = await runBench(c.load(), c.file, { methods: ['bm25', DEFAULT_METHOD], ks: [5] });
      const [bm25, def] = report.results;
      expect(bm25!.method).toBe('bm25');
      expect(def!.errors).toBe(0);
      expect(def!.recall[5]).toBeGreaterThanOrEqual(bm25!.recall[5]!);
    }, 120_000);
  }
});
