// loci's weights fitted by leave-one-set-out cross-validation over the dev suite (docs/tuning.md, "loci
// parameters fitted across sets"). Each question's stage rankings are computed once over the kept
// indexes; every grid point then only re-weights them (loci/retriever.ts rankStages), so the grid is cheap.
//   npx tsx scripts/bench/fit-loci-params.ts --keep-index <dir> [--data ../shared/data] [--limit n] [--json out.json]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEmbedder } from '../../main/engine/embed/registry.js';
import { getDocument } from '../../main/engine/store/documents.js';
import { keptIndexFile, suiteGroups, type SuiteReport } from '../../main/bench/suite.js';
import { prepareIndex, relPathOf } from '../../main/bench/runner.js';
import { recallAtK } from '../../main/bench/metrics.js';
import { pairedBootstrap, type Interval } from '../../main/bench/paired.js';
import { lociParams, lociStages, rankStages } from '../../main/engine/retrieve/loci/retriever.js';
import { DEFAULT_LOCI_PARAMS, type LociParams } from '../../main/engine/retrieve/loci-params.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/data' },
    'keep-index': { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'string' },
  },
});
if (!values['keep-index']) {
  console.error('usage: npx tsx scripts/bench/fit-loci-params.ts --keep-index <dir> [--data ../shared/data] [--limit n] [--json out.json]');
  process.exit(2);
}

/** The dev sets fitted on: every kind (Wikipedia multi-hop, Chinese news, notes folders); hotpotqa-dev's 10 questions left out. */
const SETS = ['hotpotqa-train-100', 'musique-dev', '2wiki-dev', '2wiki-hipporag-700', 'crud-1doc', 'crud-2doc', 'crud-3doc', 'silverbullet-qa', 'foam-qa'];
const K = 5;

/** The weights that matter (GloVe: dense has no weight of its own, embedder-quality.ts), each around today's default. */
const GRID: Record<'wBm25' | 'wTitle' | 'wTitleExact' | 'wPpr' | 'wBridge' | 'wAnchorBridge', number[]> = {
  wBm25: [1.5, 2, 3],
  wTitle: [0, 0.5],
  wTitleExact: [1, 2, 3],
  wPpr: [0.5, 1, 2],
  wBridge: [0.25, 0.5, 1],
  wAnchorBridge: [1, 1.5, 2],
};
type Point = Partial<LociParams>;
const points: Point[] = Object.entries(GRID).reduce<Point[]>((acc, [key, vs]) => acc.flatMap((p) => vs.map((v) => ({ ...p, [key]: v }))), [{}]);
const isDefault = (p: Point) => Object.entries(p).every(([key, v]) => DEFAULT_LOCI_PARAMS[key as keyof LociParams] === v);
const defaultIndex = points.findIndex(isDefault);
if (defaultIndex < 0) throw new Error('the grid must hold the current defaults');

const embedder = await createEmbedder('glove');
// Stage rankings gathered with every ranking a grid point may weight (title and walk on).
const gatherParams = lociParams({ wTitle: Math.max(...GRID.wTitle), wPpr: Math.max(...GRID.wPpr) });
/** recall[set][point][question]. */
const recall = new Map<string, Float64Array[]>();
const skipped: SuiteReport['skipped'] = [];
const limit = values.limit ? Number(values.limit) : undefined;
for (const g of suiteGroups({ dataDir: values.data!, methods: ['loci'], ks: [K], sets: SETS }, skipped)) {
  const corpus = g.sets[0]!.ds.corpus;
  const prepared = await prepareIndex(corpus, embedder, { dbFile: keptIndexFile(values['keep-index']!, g.key, embedder.id), methods: ['loci'] });
  try {
    const ctx = prepared.ctx;
    const indexOfPath = new Map(corpus.map((p, i) => [p.relPath ?? relPathOf(i), i]));
    const corpusIndex = new Map<number, number>();
    const indexOfDoc = (docId: number) => {
      let i = corpusIndex.get(docId);
      if (i === undefined) corpusIndex.set(docId, (i = indexOfPath.get(getDocument(ctx.db, docId)?.rel_path ?? '') ?? -1));
      return i;
    };
    for (const s of g.sets) {
      const questions = s.ds.questions.slice(0, limit);
      const rows = points.map(() => new Float64Array(questions.length));
      const started = performance.now();
      for (const [qi, q] of questions.entries()) {
        ctx.cache.forgetQuestions();
        const stages = await lociStages(ctx, q.question, gatherParams);
        points.forEach((point, pi) => {
          const ranked = rankStages(stages, lociParams(point), K).ranked.map((d) => indexOfDoc(d.docId));
          rows[pi]![qi] = recallAtK(ranked, q.gold, K);
        });
      }
      recall.set(s.name, rows);
      console.error(`${s.name}: ${questions.length} questions × ${points.length} points in ${((performance.now() - started) / 1000).toFixed(0)} s; default R@5 ${(100 * mean(rows[defaultIndex]!)).toFixed(1)}`);
    }
  } finally {
    prepared.close();
  }
}

function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return xs.length ? s / xs.length : 0;
}

const sets = [...recall.keys()];
const setMean = sets.map((s) => recall.get(s)!.map(mean));
/** The point best on the mean over `among` (sets weigh alike, not by size); ties go to the default, then grid order. */
function best(among: number[]): number {
  let top = defaultIndex;
  let topScore = -1;
  const scoreOf = (pi: number) => among.reduce((a, si) => a + setMean[si]![pi]!, 0) / among.length;
  topScore = scoreOf(defaultIndex);
  points.forEach((_, pi) => {
    const score = scoreOf(pi);
    if (score > topScore + 1e-12) [top, topScore] = [pi, score];
  });
  return top;
}

const describe = (pi: number) => Object.entries(points[pi]!).map(([k, v]) => `${k}=${v}`).join(' ');
const diff = (si: number, pi: number): Interval => {
  const rows = recall.get(sets[si]!)!;
  return pairedBootstrap(Array.from(rows[pi]!, (x, qi) => x - rows[defaultIndex]![qi]!));
};
const heldOut = sets.map((name, si) => {
  const chosen = best(sets.map((_, i) => i).filter((i) => i !== si));
  return { set: name, questions: recall.get(name)![0]!.length, chosen: describe(chosen), cv: setMean[si]![chosen]!, current: setMean[si]![defaultIndex]!, vsCurrent: diff(si, chosen) };
});
const final = best(sets.map((_, i) => i));
const finalRows = sets.map((name, si) => ({ set: name, final: setMean[si]![final]!, current: setMean[si]![defaultIndex]!, vsCurrent: diff(si, final) }));
const fallsSignificantly = finalRows.filter((r) => r.vsCurrent.significant && r.vsCurrent.mean < 0).map((r) => r.set);
// The fit transfers only if no set falls significantly when it is held out: else it is tuned to the sets, not the kinds.
const fallsHeldOut = heldOut.filter((r) => r.vsCurrent.significant && r.vsCurrent.mean < 0).map((r) => r.set);

const pct = (x: number) => (100 * x).toFixed(1);
const ci = (x: Interval) => `${x.mean >= 0 ? '+' : ''}${pct(x.mean)} [${pct(x.lo)}, ${pct(x.hi)}]${x.significant ? ' *' : ''}`;
console.log(`grid: ${points.length} points over ${Object.keys(GRID).join(', ')}; current defaults: ${describe(defaultIndex)}`);
console.log('\nleave-one-set-out: the point best on the other sets, scored on the held-out set (R@5 %)');
console.log('set | questions | CV choice | held-out R@5 (CV) | current | CV − current [95% CI]');
for (const r of heldOut) console.log(`${r.set} | ${r.questions} | ${r.chosen} | ${pct(r.cv)} | ${pct(r.current)} | ${ci(r.vsCurrent)}`);
console.log(`\nbest on the mean across all sets: ${describe(final)}${final === defaultIndex ? ' (the current defaults)' : ''}`);
console.log('set | final | current | final − current [95% CI]');
for (const r of finalRows) console.log(`${r.set} | ${pct(r.final)} | ${pct(r.current)} | ${ci(r.vsCurrent)}`);
const heldOutMean = heldOut.reduce((a, r) => a + r.vsCurrent.mean, 0) / heldOut.length;
console.log(`\nmean held-out difference, CV choice − current: ${heldOutMean >= 0 ? '+' : ''}${pct(heldOutMean)}`);
if (final === defaultIndex) console.log('verdict: the defaults stand.');
else if (fallsSignificantly.length) console.log(`verdict: keep the defaults (the fit falls significantly on ${fallsSignificantly.join(', ')}).`);
else if (fallsHeldOut.length) console.log(`verdict: keep the defaults (held out, the cross-validated choice falls significantly on ${fallsHeldOut.join(', ')}: the fit does not transfer).`);
else console.log('verdict: change the defaults to the fit (no set falls significantly, held out or not).');
if (skipped.length) console.log(`skipped: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}`);
if (values.json) writeFileSync(values.json, JSON.stringify({ grid: GRID, defaults: describe(defaultIndex), heldOut, final: describe(final), finalRows, fallsSignificantly, fallsHeldOut, heldOutMean, skipped }, null, 2));
