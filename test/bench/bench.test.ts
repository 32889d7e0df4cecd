import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset } from '../../main/bench/datasets.js';
import { formatReport } from '../../main/bench/report-table.js';
import { runBench, type BenchReport } from '../../main/bench/runner.js';

const REPO = join(import.meta.dirname, '../..');
const DATA = join(REPO, '../shared/data');
const have = existsSync(DATA);
if (!have) console.warn(`skipping bench runs: ${DATA} not found`);

describe.skipIf(!have)('loci bench', () => {
  it('the CLI prints one table with every requested method side by side (2Wiki dev, 4 questions)', () => {
    const out = execFileSync(
      'node',
      ['bin/loci.mjs', 'bench', '--dataset', join(DATA, '2wiki/dev_10.jsonl'), '--methods', 'bm25,hig,pgr,loci,minisearch,orama', '--k', '2,5', '--limit', '4'],
      { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/2wiki, 4 questions, 40 documents, embedder glove/);
    expect(lines[1]).toMatch(/\| method\s+\|\s+R@2 \|\s+R@5 \| ans@2 \| ans@5 \| ans shown \| ans sources \| ret p50 \| ret p95 \| ask p50 \| ask p95 \| index s \| peak RSS MB \|/);
    // The methods' table ends at the first line that is not a row; the paired comparisons follow it.
    const tableEnd = lines.findIndex((l, i) => i >= 3 && !l.startsWith('| '));
    const rows = lines.slice(3, tableEnd === -1 ? undefined : tableEnd);
    expect(out).toMatch(/vs bm25/i);
    // GloVe averages word vectors: reversing a sentence leaves it unmoved, so loci gives dense no weight and says why.
    expect(out).toMatch(/^embedder trust \(loci's dense weight\): weight 0\.00 \(coverage –, order sensitivity 0\.0\d, \d+ probe sentences\)$/m);
    const methods = rows.map((l) => l.split('|')[1]!.trim());
    expect(methods).toEqual(['bm25', 'hig', 'pgr', 'loci', 'minisearch', 'orama']);
    for (const l of rows) {
      const cells = l.split('|').slice(2, -1).map((c) => c.trim());
      const loci = !['minisearch', 'orama'].includes(l.split('|')[1]!.trim());
      // Peers have no extractive answer, no sources for a model and no ask: those cells are dashes; every
      // other cell is a number.
      cells.forEach((c, i) => {
        if (!loci && [4, 5, 8, 9].includes(i)) expect(c).toBe('–');
        else expect(Number(c)).toBeGreaterThanOrEqual(0);
      });
      expect(Number(cells[0])).toBeLessThanOrEqual(Number(cells[1])); // recall@2 ≤ recall@5
    }
  }, 120_000);

  it('--json gives the report as data', () => {
    const out = execFileSync(
      'node',
      ['bin/loci.mjs', 'bench', '--dataset', join(DATA, 'musique/dev_answerable_10.jsonl'), '--methods', 'bm25,minisearch', '--limit', '2', '--json'],
      { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const report = JSON.parse(out) as BenchReport;
    expect(report.format).toBe('musique');
    expect(report.questions).toBe(2);
    expect(report.paragraphs).toBe(40);
    expect(report.results.map((r) => r.method)).toEqual(['bm25', 'minisearch']);
    expect(report.embedderTrust).toMatchObject({ coverage: null, weight: 0 });
    expect(report.embedderTrust!.probes).toBeGreaterThan(0);
    expect(Object.keys(report.results[0]!.recall)).toEqual(['2', '5', '10']);
    // Each question's scores, in the set's order, averaging to the table's figures.
    const ids = loadDataset(join(DATA, 'musique/dev_answerable_10.jsonl'), { limit: 2 }).questions.map((q) => q.id);
    for (const r of report.results) {
      expect(r.perQuestion.map((q) => q.id)).toEqual(ids);
      for (const k of [2, 5, 10]) {
        expect(r.perQuestion.reduce((a, q) => a + q.recall[k]!, 0) / ids.length).toBeCloseTo(r.recall[k]!, 9);
        const found = r.perQuestion.flatMap((q) => (q.answer[k] === null ? [] : [q.answer[k]!]));
        expect(found.length).toBe(r.answerQuestions);
      }
    }
    expect(report.results[0]!.perQuestion.every((q) => q.shown !== null)).toBe(true);
    expect(report.results[1]!.perQuestion.every((q) => q.shown === null)).toBe(true);
  }, 120_000);

  it('--baseline pairs each method with a previous --json run question by question; a file that is no run is refused before any work', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-baseline-'));
    try {
      const args = ['bin/loci.mjs', 'bench', '--dataset', join(DATA, 'musique/dev_answerable_10.jsonl'), '--methods', 'bm25,hybrid', '--k', '5', '--limit', '4'];
      const before = join(dir, 'before.json');
      writeFileSync(before, execFileSync('node', [...args, '--json'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
      const out = execFileSync('node', [...args, '--baseline', before], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(out).toMatch(/paired difference in recall@5 \(points\), mean \[95% bootstrap interval over questions, 2000 resamples, seed 1\]/);
      const rows = out.split('\n').filter((l) => /^\| .*musique.*\|\s+(bm25|hybrid) \|/.test(l)).map((l) => l.split('|').map((c) => c.trim()));
      expect(rows.map((r) => r[2])).toEqual(['bm25', 'hybrid']);
      // The same code on the same index: every question the same, so no difference and no interval.
      expect(rows.map((r) => r[5])).toEqual(['+0.0 [+0.0, +0.0]', '+0.0 [+0.0, +0.0]']);
      expect(rows[0]![4]).toBe('–');
      const notARun = join(dir, 'other.json');
      writeFileSync(notARun, '{"hello": 1}');
      expect(() => execFileSync('node', [...args, '--baseline', notARun], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toThrow(/--baseline .*other\.json: not a `loci bench --json` output/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  // The target, measured: on the pooled HotpotQA train 100, loci beats bm25 and both peers on recall@5.
  it('loci beats bm25, MiniSearch and Orama on recall@5 on HotpotQA train 100 (no model)', async () => {
    const file = join(DATA, 'hotpotqa/train_distractor_100.json');
    const report = await runBench(loadDataset(file), file, { methods: ['bm25', 'loci', 'minisearch', 'orama'], ks: [5] });
    console.log(formatReport(report));
    const r5 = Object.fromEntries(report.results.map((r) => [r.method, r.recall[5]!]));
    expect(r5.loci).toBeGreaterThan(r5.bm25!);
    expect(r5.loci).toBeGreaterThan(r5.minisearch!);
    expect(r5.loci).toBeGreaterThan(r5.orama!);
  }, 300_000);
});
