// Paired differences of recall@k between two rankings of the same questions, with a bootstrap interval:
// a change that moves a set by a few questions' worth of noise is shown as noise, not as a gain or a loss.
import { readFileSync } from 'node:fs';
import { quantileSorted, randomInt, randomLcg } from 'd3';
import { pct, table } from './report-table.js';

export interface Interval {
  /** Questions paired. */
  n: number;
  /** Mean difference (current − reference), in recall units (0–1). */
  mean: number;
  lo: number;
  hi: number;
  /** The interval excludes 0. */
  significant: boolean;
}

export interface BootstrapOptions {
  resamples?: number;
  /** The same seed resamples the same questions, so a rerun reports the same interval. */
  seed?: number;
  level?: number;
}

export const BOOTSTRAP_DEFAULTS = { resamples: 2_000, seed: 1, level: 0.95 } as const;

/** Percentile bootstrap of the mean of paired differences (questions resampled with replacement). */
export function pairedBootstrap(diffs: number[], o: BootstrapOptions = {}): Interval {
  const { resamples, seed, level } = { ...BOOTSTRAP_DEFAULTS, ...o };
  const n = diffs.length;
  if (n === 0) return { n: 0, mean: NaN, lo: NaN, hi: NaN, significant: false };
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  const draw = randomInt.source(randomLcg(seed))(0, n);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += diffs[draw()]!;
    means[r] = sum / n;
  }
  const sorted = Array.from(means.sort());
  const tail = (1 - level) / 2;
  // Resampled means are sums of the same floats in another order: snap the rounding noise so a constant
  // difference gives a point interval (and 0 is never "significant" by 1e-17).
  const snap = (x: number) => (Math.abs(x - mean) < 1e-12 ? mean : x);
  const lo = snap(quantileSorted(sorted, tail)!);
  const hi = snap(quantileSorted(sorted, 1 - tail)!);
  return { n, mean, lo, hi, significant: lo > 0 || hi < 0 };
}

/** What the comparison reads of a bench report (runner.ts's BenchReport, or its JSON). */
export interface ScoredSet {
  name?: string;
  dataset: string;
  embedder: string;
  results: { method: string; recall: Record<number, number>; perQuestion: { id: string; recall: Record<number, number> }[] }[];
}

/** Each question's recall@k, by id, of one method on one set (null: the method or the cut-off is not there). */
function recallById(set: ScoredSet, method: string, k: number): Map<string, number> | null {
  const m = set.results.find((r) => r.method === method);
  if (!m?.perQuestion?.length || m.perQuestion[0]!.recall[k] === undefined) return null;
  return new Map(m.perQuestion.map((q) => [q.id, q.recall[k]!]));
}

/** Differences over the questions both rankings answered (matched by id, in the current run's order). */
export function pairedDiffs(current: Map<string, number>, reference: Map<string, number>): number[] {
  const out: number[] = [];
  for (const [id, r] of current) {
    const ref = reference.get(id);
    if (ref !== undefined) out.push(r - ref);
  }
  return out;
}

export interface MethodComparison {
  set: string;
  method: string;
  recall: number;
  /** Against BM25 on the same run (null for BM25 itself, or when BM25 was not run). */
  vsBm25: Interval | null;
  /** Against the same method and set of the baseline run (null: none given, or not in it). */
  vsBaseline: Interval | null;
}

export const setName = (s: ScoredSet): string => s.name ?? s.dataset;

/** The set reports of a `loci bench --json` output: one report, a suite, or a list of either (several embedders). */
export function scoredSets(json: unknown): ScoredSet[] {
  if (Array.isArray(json)) return json.flatMap(scoredSets);
  if (json && typeof json === 'object') {
    const o = json as { reports?: unknown; results?: unknown };
    if (Array.isArray(o.reports)) return o.reports.flatMap(scoredSets);
    if (Array.isArray(o.results)) return [json as ScoredSet];
  }
  throw new Error('not a `loci bench --json` output: expected a report with "results" or a suite with "reports"');
}

/** Every method of every set against BM25 and against the baseline's same set, embedder and method. */
export function compareRuns(current: ScoredSet[], baseline: ScoredSet[] | null, k: number, o: BootstrapOptions = {}): MethodComparison[] {
  const out: MethodComparison[] = [];
  for (const set of current) {
    const name = setName(set);
    const base = baseline?.find((b) => setName(b) === name && b.embedder === set.embedder) ?? null;
    const bm25 = recallById(set, 'bm25', k);
    for (const m of set.results) {
      const mine = recallById(set, m.method, k);
      if (!mine) continue;
      const ref = base && recallById(base, m.method, k);
      out.push({
        set: name,
        method: m.method,
        recall: m.recall[k]!,
        vsBm25: bm25 && m.method !== 'bm25' ? pairedBootstrap(pairedDiffs(mine, bm25), o) : null,
        vsBaseline: ref ? pairedBootstrap(pairedDiffs(mine, ref), o) : null,
      });
    }
  }
  return out;
}

/** "+3.1 [+0.4, +5.9]*" in points of recall; `*` where the interval excludes 0. */
export function formatInterval(x: Interval | null): string {
  if (!x || x.n === 0) return '–';
  const pts = (v: number) => `${v >= 0 ? '+' : ''}${(100 * v).toFixed(1)}`;
  return `${pts(x.mean)} [${pts(x.lo)}, ${pts(x.hi)}]${x.significant ? '*' : ''}`;
}

/** The paired table of a run: each set and method, its recall@k, and its differences with their intervals. */
export function formatComparisons(rows: MethodComparison[], k: number, hasBaseline: boolean, o: BootstrapOptions = {}): string {
  const { resamples, seed, level } = { ...BOOTSTRAP_DEFAULTS, ...o };
  const header = ['set', 'method', `R@${k}`, 'vs bm25', ...(hasBaseline ? ['vs baseline'] : [])];
  const body = rows.map((r) => [r.set, r.method, pct(r.recall), formatInterval(r.vsBm25), ...(hasBaseline ? [formatInterval(r.vsBaseline)] : [])]);
  return [
    `paired difference in recall@${k} (points), mean [${100 * level}% bootstrap interval over questions, ${resamples} resamples, seed ${seed}]; * the interval excludes 0`,
    ...table(header, body),
  ].join('\n');
}

/** A baseline file's set reports, or a clear error naming the file. */
export function readBaseline(file: string): ScoredSet[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`--baseline ${file}: ${err instanceof SyntaxError ? 'not JSON' : (err as Error).message}`);
  }
  try {
    return scoredSets(json);
  } catch (err) {
    throw new Error(`--baseline ${file}: ${(err as Error).message}`);
  }
}
