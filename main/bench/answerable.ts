// `loci bench-answerable`: how well `ask` knows when the notes do not answer (answer/answerable.ts). Every
// dev set is asked twice: over its whole corpus (the gold notes are there: answerable) and over the corpus
// with every gold note of the set removed (unanswerable: what is left is the distractors, or the rest of
// the folder). The decision's signals are recorded per question; the logistic weights are fitted on some
// sets and the decision's precision and recall reported on each, held-across kinds too (fit on Wikipedia
// and news, test on notes, and so on).
import type { Embedder } from '../engine/embed/embedder.js';
import { retrieve } from '../engine/retrieve/index.js';
import { analyseQuery } from '../engine/retrieve/query.js';
import { answerScore, answerSignals, BIAS, SIGNAL_NAMES, THRESHOLD, WEIGHTS, type AnswerSignals } from '../engine/answer/answerable.js';
import { pct, table } from './report-table.js';
import { ASK_K, prepareIndex } from './runner.js';
import { suiteGroups, type SuiteOptions, type SuiteReport } from './suite.js';

export type SetKind = 'wiki' | 'news' | 'notes';

/** The kind of data a dev set is, for fitting on some kinds and testing on the others. */
export function kindOf(set: string): SetKind {
  if (set.startsWith('crud-')) return 'news';
  if (set.endsWith('-qa')) return 'notes';
  return 'wiki';
}

export interface Observation {
  set: string;
  id: string;
  /** Whether the question's gold notes were in the index. */
  answerable: boolean;
  signals: AnswerSignals;
}

export interface Weights {
  weights: Record<keyof AnswerSignals, number>;
  bias: number;
  threshold: number;
}

export interface DecisionFigures {
  set: string;
  answerable: number;
  unanswerable: number;
  /** Of the questions decided answerable, the share that were; of those that were, the share decided so. */
  precision: number;
  recall: number;
  /** The same for the decision "unanswerable". */
  unPrecision: number;
  unRecall: number;
  accuracy: number;
}

export interface AnswerableReport {
  embedder: string;
  method: string;
  /** The weights answerable.ts ships with, on every set. */
  shipped: { weights: Weights; figures: DecisionFigures[] };
  /** Fitted on every set (what answerable.ts should ship), and its figures on every set. */
  fitted: { weights: Weights; figures: DecisionFigures[] };
  /** Fitted on all kinds but one, figures on the held-out kind's sets. */
  heldOut: { kind: SetKind; weights: Weights; figures: DecisionFigures[] }[];
  skipped: SuiteReport['skipped'];
  observations: Observation[];
}

/** Records the signals of every question of the dev sets, over the whole corpus and without the gold notes. */
export async function observe(embedder: Embedder, o: Pick<SuiteOptions, 'dataDir' | 'quick' | 'pool' | 'sets' | 'onProgress'> & { method?: string }): Promise<{ observations: Observation[]; skipped: SuiteReport['skipped'] }> {
  const log = o.onProgress ?? (() => undefined);
  const skipped: SuiteReport['skipped'] = [];
  const observations: Observation[] = [];
  const method = (o.method ?? 'loci') as Parameters<typeof retrieve>[2];
  for (const g of suiteGroups({ ...o, methods: [method], ks: [ASK_K] }, skipped)) {
    const corpus = g.sets[0]!.ds.corpus;
    const gold = new Set(g.sets.flatMap((s) => s.ds.questions.flatMap((q) => q.gold)));
    const without = corpus.filter((_p, i) => !gold.has(i));
    for (const [answerable, docs] of [[true, corpus], [false, without]] as const) {
      log(`[${g.sets.map((s) => s.name).join(', ')}] ${answerable ? 'whole corpus' : 'without the gold notes'}: ${docs.length} documents`);
      const prepared = await prepareIndex(docs, embedder, { onProgress: log, methods: [method] });
      try {
        const ctx = prepared.ctx;
        for (const s of g.sets) {
          for (const q of s.ds.questions) {
            ctx.cache.forgetQuestions();
            const { contexts, query } = await retrieve(ctx, q.question, method, ASK_K);
            const qa = query ?? (await analyseQuery(ctx, q.question));
            observations.push({ set: s.name, id: q.id, answerable, signals: answerSignals(ctx, qa, contexts) });
          }
        }
      } finally {
        prepared.close();
      }
    }
  }
  return { observations, skipped };
}

/**
 * Logistic regression over the signals by batch gradient descent (five features in [0, 1], a few
 * hundred rows), each set weighted equally so the largest set does not decide alone; then the threshold
 * that maximises balanced accuracy on the same rows.
 */
export function fit(rows: readonly Observation[], iterations = 3000, rate = 0.5, l2 = 1e-3): Weights {
  const perSet = new Map<string, number>();
  for (const r of rows) perSet.set(r.set, (perSet.get(r.set) ?? 0) + 1);
  const weightOf = (r: Observation) => rows.length / perSet.size / perSet.get(r.set)!;
  const w = Object.fromEntries(SIGNAL_NAMES.map((k) => [k, 0])) as Record<keyof AnswerSignals, number>;
  let bias = 0;
  for (let it = 0; it < iterations; it++) {
    const grad = Object.fromEntries(SIGNAL_NAMES.map((k) => [k, 0])) as Record<keyof AnswerSignals, number>;
    let gb = 0;
    for (const r of rows) {
      const err = (answerScore(r.signals, w, bias) - (r.answerable ? 1 : 0)) * weightOf(r);
      for (const k of SIGNAL_NAMES) grad[k] += err * r.signals[k];
      gb += err;
    }
    for (const k of SIGNAL_NAMES) w[k] -= rate * (grad[k] / rows.length + l2 * w[k]);
    bias -= (rate * gb) / rows.length;
  }
  const scores = rows.map((r) => ({ s: answerScore(r.signals, w, bias), y: r.answerable, weight: weightOf(r) }));
  let threshold = 0.5;
  let best = -1;
  for (let t = 0.05; t < 0.96; t += 0.01) {
    const b = balancedAccuracy(scores, t);
    if (b > best) [best, threshold] = [b, Number(t.toFixed(2))];
  }
  return { weights: w, bias, threshold };
}

function balancedAccuracy(scores: { s: number; y: boolean; weight: number }[], t: number): number {
  const pos = scores.filter((x) => x.y);
  const neg = scores.filter((x) => !x.y);
  const share = (list: typeof scores, ok: (x: (typeof scores)[number]) => boolean) => list.reduce((a, x) => a + (ok(x) ? x.weight : 0), 0) / (list.reduce((a, x) => a + x.weight, 0) || 1);
  return (share(pos, (x) => x.s >= t) + share(neg, (x) => x.s < t)) / 2;
}

/** Precision and recall of the decision on each set's questions. */
export function figures(rows: readonly Observation[], w: Weights): DecisionFigures[] {
  const sets = [...new Set(rows.map((r) => r.set))];
  return sets.map((set) => {
    const mine = rows.filter((r) => r.set === set);
    const said = mine.map((r) => ({ y: r.answerable, yes: answerScore(r.signals, w.weights, w.bias) >= w.threshold }));
    const tp = said.filter((x) => x.y && x.yes).length;
    const tn = said.filter((x) => !x.y && !x.yes).length;
    const saidYes = said.filter((x) => x.yes).length;
    const pos = said.filter((x) => x.y).length;
    const ratio = (a: number, b: number) => (b ? a / b : NaN);
    return {
      set,
      answerable: pos,
      unanswerable: said.length - pos,
      precision: ratio(tp, saidYes),
      recall: ratio(tp, pos),
      unPrecision: ratio(tn, said.length - saidYes),
      unRecall: ratio(tn, said.length - pos),
      accuracy: ratio(tp + tn, said.length),
    };
  });
}

export function report(embedder: string, method: string, observations: Observation[], skipped: SuiteReport['skipped']): AnswerableReport {
  const shippedWeights: Weights = { weights: { ...WEIGHTS }, bias: BIAS, threshold: THRESHOLD };
  const all = fit(observations);
  const kinds = [...new Set(observations.map((r) => kindOf(r.set)))];
  const heldOut = kinds.length < 2 ? [] : kinds.map((kind) => {
    const weights = fit(observations.filter((r) => kindOf(r.set) !== kind));
    return { kind, weights, figures: figures(observations.filter((r) => kindOf(r.set) === kind), weights) };
  });
  return {
    embedder,
    method,
    shipped: { weights: shippedWeights, figures: figures(observations, shippedWeights) },
    fitted: { weights: all, figures: figures(observations, all) },
    heldOut,
    skipped,
    observations,
  };
}

const describe = (w: Weights) =>
  `${SIGNAL_NAMES.map((k) => `${k} ${w.weights[k].toFixed(2)}`).join(', ')}, bias ${w.bias.toFixed(2)}, threshold ${w.threshold.toFixed(2)}`;

function figureTable(rows: DecisionFigures[]): string[] {
  return table(
    ['set', 'answerable/unanswerable q', 'answerable: precision', 'recall', 'unanswerable: precision', 'recall', 'accuracy'],
    rows.map((f) => [f.set, `${f.answerable}/${f.unanswerable}`, pct(f.precision), pct(f.recall), pct(f.unPrecision), pct(f.unRecall), pct(f.accuracy)]),
  );
}

export function formatAnswerableReport(r: AnswerableReport): string {
  const out = [
    `Answerable decision — embedder ${r.embedder}, method ${r.method}, ${ASK_K} contexts (%)`,
    '',
    `shipped weights (answer/answerable.ts): ${describe(r.shipped.weights)}`,
    ...figureTable(r.shipped.figures),
    '',
    `fitted on every set: ${describe(r.fitted.weights)}`,
    ...figureTable(r.fitted.figures),
  ];
  for (const h of r.heldOut) out.push('', `held out: fitted on every kind but ${h.kind} (${describe(h.weights)}), tested on ${h.kind}`, ...figureTable(h.figures));
  if (r.skipped.length) out.push('', 'not run here: ' + r.skipped.map((s) => `${s.name} (${s.reason})`).join('; '));
  return out.join('\n');
}
