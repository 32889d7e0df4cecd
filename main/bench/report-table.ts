// How a bench report reads in a terminal or in docs/benchmarks.md: Markdown tables, percentages.
import type { BenchReport } from './runner.js';
import type { EmbedderQuality } from '../engine/retrieve/embedder-quality.js';

export const pct = (x: number) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '–');

/** One table, methods side by side. */
export function formatReport(r: BenchReport): string {
  const header = [
    'method',
    ...r.ks.map((k) => `R@${k}`),
    ...r.ks.map((k) => `ans@${k}`),
    'ans shown',
    'ans sources',
    'ret p50',
    'ret p95',
    'ask p50',
    'ask p95',
    'index s',
    'peak RSS MB',
  ];
  const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
  const rows = r.results.map((m) => [
    m.method + (m.errors ? ` (${m.errors} errors)` : ''),
    ...r.ks.map((k) => pct(m.recall[k]!)),
    ...r.ks.map((k) => pct(m.answerRecall[k]!)),
    pct(m.extractiveAnswer),
    pct(m.sourcesAnswer),
    ms(m.latencyP50Ms),
    ms(m.latencyP95Ms),
    ms(m.askP50Ms),
    ms(m.askP95Ms),
    m.indexSeconds.toFixed(2),
    m.peakRssMb.toFixed(0),
  ]);
  const answerNote =
    r.answerMetric === 'word-share'
      ? ' (ans = share of the reference answer\'s words)'
      : r.results[0]
        ? ` (answer recall over ${r.results[0].answerQuestions} questions with a span answer)`
        : '';
  return [
    `${r.dataset} — ${r.format}, ${r.questions} questions, ${r.paragraphs} documents, embedder ${r.embedder}${answerNote}`,
    ...table(header, rows),
    'R@k: supporting documents among the first k distinct documents; ans@k: the answer in the first k contexts returned.',
    'ans shown: the same score on the extractive answer `loci ask` shows (no model); ask = retrieval of 8 contexts + that answer, ms.',
    ...(r.embedderTrust ? [`embedder trust (loci's dense weight): ${trustText(r.embedderTrust)}`] : []),
  ].join('\n');
}

/** The trust estimate's figures: what decided how much loci weighs the embedder's ranking on this corpus. */
export function trustCells(t: EmbedderQuality): string[] {
  // + 0 turns a rounded -0 (a reversal that moved nothing, by float error) into 0.
  const n = (x: number | null) => (x === null ? '–' : (Math.round(x * 100) / 100 + 0).toFixed(2));
  return [String(t.probes), n(t.coverage), n(t.orderSensitivity), n(t.weight)];
}

function trustText(t: EmbedderQuality): string {
  const [probes, coverage, order, weight] = trustCells(t);
  return `weight ${weight} (coverage ${coverage}, order sensitivity ${order}, ${probes} probe sentences)`;
}

/** A Markdown table: first column left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  return [line(header), '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|', ...rows.map(line)];
}
