// scripts/bench/to-markdown.ts turns what `loci bench --json` printed into the tables docs/benchmarks.md
// holds. A real run of the CLI over a small question set written here (our own text, HotpotQA's format),
// so the figures checked are the run's own, peers (minisearch) included.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchReport } from '../../main/bench/runner.js';

const REPO = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loci-to-markdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const records = [
  {
    _id: 'q1',
    question: 'Which city is the lighthouse keeper Ingrid Salo from?',
    answer: 'Vaasa',
    supporting_facts: [['Ingrid Salo', 0]],
    context: [
      ['Ingrid Salo', ['Ingrid Salo is a lighthouse keeper from Vaasa.', 'She trims the lamp wick at dusk.']],
      ['Harbour Bakery', ['The harbour bakery sells rye bread every morning.']],
      ['Tide Tables', ['Tide tables list the high and low water of each day.']],
    ],
  },
  {
    _id: 'q2',
    question: 'What does the harbour bakery sell?',
    answer: 'rye bread',
    supporting_facts: [['Harbour Bakery', 0]],
    context: [
      ['Harbour Bakery', ['The harbour bakery sells rye bread every morning.']],
      ['Ingrid Salo', ['Ingrid Salo is a lighthouse keeper from Vaasa.', 'She trims the lamp wick at dusk.']],
      ['Ferry Timetable', ['The ferry leaves the pier at nine and returns at four.']],
    ],
  },
];

function loci(args: string[]): string {
  return execFileSync(process.execPath, ['bin/loci.mjs', ...args], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function toMarkdown(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/to-markdown.ts', ...args], { cwd: REPO, encoding: 'utf8' });
}

describe('scripts/bench/to-markdown.ts', () => {
  it('prints the run as Markdown tables under its command, with the figures of the JSON', () => {
    const dataset = join(dir, 'tiny.json');
    writeFileSync(dataset, JSON.stringify(records));
    const report = JSON.parse(loci(['bench', '--dataset', dataset, '--methods', 'bm25,minisearch', '--k', '1,2', '--json'])) as BenchReport;
    const json = join(dir, 'run.json');
    writeFileSync(json, JSON.stringify(report));

    const r = toMarkdown([json, '--command', 'npx loci bench --dataset tiny.json --methods bm25,minisearch --k 1,2']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual(['```sh', 'npx loci bench --dataset tiny.json --methods bm25,minisearch --k 1,2', '```']);
    expect(lines[4]).toMatch(/^#### .*tiny\.json — hotpotqa, 2 questions, 4 documents/);
    // A table is separated from the text above it, as Markdown needs.
    const header = lines.findIndex((l) => l.startsWith('| method'));
    expect(lines[header - 1]).toBe('');
    expect(lines[header + 1]).toMatch(/^\|-+\|-+:\|/);
    for (const m of report.results) {
      const row = lines.find((l) => l.split('|')[1]?.trim() === m.method);
      const cells = row!.split('|').slice(2, -1).map((c) => c.trim());
      expect(cells.slice(0, 2)).toEqual([(100 * m.recall[1]!).toFixed(1), (100 * m.recall[2]!).toFixed(1)]);
    }

    // The same run as one set of a suite (as `--suite dev --json` nests it), in a list (one per embedder):
    // a suite's tables each sit under a caption line.
    const suite = { suite: 'dev', quick: false, embedder: report.embedder, ks: report.ks, methods: ['bm25', 'minisearch'], reports: [{ ...report, name: 'tiny' }], skipped: [] };
    writeFileSync(json, JSON.stringify([suite]));
    const s = toMarkdown([json]);
    expect(s.status, s.stderr).toBe(0);
    const out = s.stdout.split('\n');
    expect(out[0]).toBe(`#### Suite dev — embedder ${report.embedder}`);
    const tables = out.flatMap((l, i) => (l.startsWith('| set') ? [i] : []));
    expect(tables.length).toBeGreaterThanOrEqual(2);
    for (const t of tables) expect([out[t - 2]!.length > 0, out[t - 1]]).toEqual([true, '']);
    const recallRow = out[tables[0]! + 2]!.split('|').map((c) => c.trim());
    // recall@k at the suite's k: 5 when run, else the first cut-off (1 here).
    expect(recallRow.slice(2, 4)).toEqual(report.results.map((m) => (100 * m.recall[1]!).toFixed(1)));
  }, 120_000);

  it('refuses what is not a bench report, with a message and no stack', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ hello: 'world' }));
    const r = toMarkdown([bad]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('to-markdown: not a `loci bench --json` report: expected a suite, a dataset or an answer report');
    expect(toMarkdown([]).status).toBe(2);
  });
});
