// `loci bench --suite dev`: every dev set side by side in one run — Wikipedia multi-hop (HotpotQA train-100
// and dev, MuSiQue dev, 2Wiki dev, HippoRAG 2's 700 2Wiki questions over 6,119 passages), untitled Chinese
// news (CRUD-RAG 1/2/3-doc over one pooled corpus) and documentation notes (our SilverBullet and Foam question sets) — so a retrieval change is judged on all
// kinds of data at once, never tuned to one. `--quick` is the same shape, smaller, for iteration.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../engine/embed/embedder.js';
import { DEFAULT_CRUD_POOL, loadCrud } from './crud.js';
import { loadDataset } from './datasets.js';
import type { BenchDataset } from './dataset.js';
import { loadDocsQa } from './docs-qa.js';
import { pct, table, trustCells } from './report-table.js';
import { ASK_K, evaluateDataset, prepareIndex, type BenchReport } from './runner.js';
import { LOCI_METHODS, type DatasetFormat, type SuiteName } from './names.js';
import { SOURCE_CHARS } from '../engine/answer/generate.js';

/** Every set of the dev suite, by name (for --sets). */
export function suiteSetNames(): string[] {
  return [...SINGLE_SETS.map((s) => s.name), ...CRUD_FILES.map((c) => c.name), ...DOCS_QA.map((d) => d.name)];
}

/** Our own question sets over the shared notes folders (in the repo: they are ours, not third-party text). */
export const DEV_SETS_DIR = join(import.meta.dirname, 'dev-sets');

interface SingleSet {
  name: string;
  /** Under the shared data folder (or, for docs-QA, our dev-sets folder). */
  file: string;
  format: DatasetFormat;
  /** Questions kept by --quick (all when absent). */
  quickLimit?: number;
  /** A passages file beside the questions (HippoRAG format), under the shared data folder. */
  corpus?: string;
}

const SINGLE_SETS: SingleSet[] = [
  { name: 'hotpotqa-train-100', file: 'hotpotqa/train_distractor_100.json', format: 'hotpotqa', quickLimit: 30 },
  { name: 'hotpotqa-dev', file: 'hotpotqa/dev_distractor_10.jsonl', format: 'hotpotqa' },
  { name: 'musique-dev', file: 'musique/dev_answerable_10.jsonl', format: 'musique' },
  { name: '2wiki-dev', file: '2wiki/dev_10.jsonl', format: '2wiki' },
  // HippoRAG 2's 2Wiki evaluation questions over the benchmark's whole 6,119-passage pool: large enough that
  // a second-hop loss shows (the 10-question set above hides it).
  { name: '2wiki-hipporag-700', file: '2wiki/hipporag_dev/questions.json', format: 'hipporag', corpus: '2wiki/hipporag_dev/corpus.json', quickLimit: 150 },
];
const CRUD_FILES = ['1doc', '2doc', '3doc'].map((n) => ({ name: `crud-${n}`, file: `crud/questions_${n}_dev.json` }));
const DOCS_QA = [
  { name: 'silverbullet-qa', file: 'silverbullet.json' },
  { name: 'foam-qa', file: 'foam.json' },
];

export interface SuiteOptions {
  /** The shared data folder (`../shared/data` by default). */
  dataDir: string;
  methods: string[];
  ks: number[];
  quick?: boolean;
  /** CRUD pool size (default 10,000; 1,000 with --quick). */
  pool?: number;
  /** Only these sets (by name); all when absent. */
  sets?: string[];
  /**
   * Keep each corpus's index in this folder (one database per corpus and embedder) and reuse it on the
   * next run: the indexer skips unchanged documents, so only the questions run again. Absent: temporary.
   */
  indexDir?: string;
  onProgress?: (message: string) => void;
  /** Each set's full report as it completes. */
  onReport?: (report: BenchReport) => void;
}

export interface SuiteReport {
  suite: SuiteName;
  quick: boolean;
  embedder: string;
  ks: number[];
  methods: string[];
  reports: (BenchReport & { name: string })[];
  /** Sets that could not run here (file absent), with the reason. */
  skipped: { name: string; reason: string }[];
}

/** A group of question sets over one corpus: indexed once, each set evaluated on it. */
export interface Group {
  /** Names the kept index file (--keep-index). */
  key: string;
  sets: { name: string; file: string; ds: BenchDataset }[];
}

export function* suiteGroups(o: SuiteOptions, skipped: SuiteReport['skipped']): Generator<Group> {
  const wanted = (name: string) => !o.sets || o.sets.includes(name);
  const have = (name: string, file: string) => {
    if (!wanted(name)) return false;
    if (existsSync(file)) return true;
    skipped.push({ name, reason: `${file} is absent` });
    return false;
  };
  for (const s of SINGLE_SETS) {
    const file = join(o.dataDir, s.file);
    if (!have(s.name, file)) continue;
    yield { key: s.name, sets: [{ name: s.name, file, ds: loadDataset(file, { format: s.format, corpus: s.corpus && join(o.dataDir, s.corpus), limit: o.quick ? s.quickLimit : undefined }) }] };
  }
  const crud = CRUD_FILES.filter((c) => have(c.name, join(o.dataDir, c.file)));
  const news = join(o.dataDir, 'crud/news.jsonl.gz');
  if (crud.length && existsSync(news)) {
    const files = crud.map((c) => join(o.dataDir, c.file));
    const pool = o.pool ?? (o.quick ? 1_000 : DEFAULT_CRUD_POOL);
    const { sets } = loadCrud(files, { corpus: news, pool, limit: o.quick ? 40 : undefined });
    // The pool depends on which question files' gold articles it holds, so the key names them.
    yield { key: `crud-${crud.map((c) => c.name.replace('crud-', '')).join('-')}-${pool}`, sets: crud.map((c, i) => ({ name: c.name, file: files[i]!, ds: sets[i]! })) };
  } else if (crud.length) {
    for (const c of crud) skipped.push({ name: c.name, reason: `${news} is absent` });
  }
  for (const d of DOCS_QA) {
    const file = join(DEV_SETS_DIR, d.file);
    if (!have(d.name, file)) continue;
    const ds = loadDocsQa(file, { sharedData: o.dataDir });
    yield { key: d.name, sets: [{ name: d.name, file, ds }] };
  }
}

/** The kept index of a corpus for an embedder (ids like `transformers:/path` made file-name safe). */
export function keptIndexFile(dir: string, key: string, embedderId: string): string {
  mkdirSync(dir, { recursive: true });
  return join(dir, `${key}--${embedderId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-80)}.db`);
}

/** Runs the suite with one embedder. Loci methods share one index per corpus; peers build their own. */
export async function runSuite(embedder: Embedder, o: SuiteOptions): Promise<SuiteReport> {
  const log = o.onProgress ?? (() => undefined);
  const skipped: SuiteReport['skipped'] = [];
  const reports: SuiteReport['reports'] = [];
  const needsIndex = o.methods.some((m) => (LOCI_METHODS as string[]).includes(m));
  for (const g of suiteGroups(o, skipped)) {
    const corpus = g.sets[0]!.ds.corpus;
    log(`[${g.sets.map((s) => s.name).join(', ')}] ${corpus.length} documents`);
    const dbFile = o.indexDir ? keptIndexFile(o.indexDir, g.key, embedder.id) : undefined;
    const prepared = needsIndex ? await prepareIndex(corpus, embedder, { dbFile, onProgress: log, methods: o.methods }) : null;
    try {
      for (const s of g.sets) {
        const report = { name: s.name, ...(await evaluateDataset(prepared, s.ds, s.file, { methods: o.methods, ks: o.ks, onProgress: log, embedderId: embedder.id })) };
        o.onReport?.(report);
        reports.push(report);
      }
    } finally {
      prepared?.close();
    }
  }
  return { suite: 'dev', quick: !!o.quick, embedder: embedder.id, ks: o.ks, methods: o.methods, reports, skipped };
}

/** One embedder's run: recall@k per set × method, then the answer shown by `ask` and its latency. */
export function formatSuite(r: SuiteReport): string {
  const k = r.ks.includes(5) ? 5 : r.ks[0]!;
  const setCol = (rep: SuiteReport['reports'][number]) => `${rep.name} (${rep.questions}q/${rep.paragraphs}d)`;
  const cell = (rep: SuiteReport['reports'][number], method: string, f: (m: BenchReport['results'][number]) => string) => {
    const m = rep.results.find((x) => x.method === method);
    return m ? f(m) : '–';
  };
  const lociMethods = r.methods.filter((m) => (LOCI_METHODS as string[]).includes(m));
  const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
  const out = [
    `Suite ${r.suite}${r.quick ? ' (quick)' : ''} — embedder ${r.embedder}`,
    '',
    `recall@${k} of the supporting documents (%)`,
    ...table(['set', ...r.methods], r.reports.map((rep) => [setCol(rep), ...r.methods.map((m) => cell(rep, m, (x) => pct(x.recall[k]!)))])),
    '',
    `answer in the first ${k} contexts returned (%; docs-QA: share of the reference answer's words)`,
    ...table(['set', ...r.methods], r.reports.map((rep) => [setCol(rep), ...r.methods.map((m) => cell(rep, m, (x) => pct(x.answerRecall[k]!)))])),
  ];
  if (lociMethods.length) {
    out.push(
      '',
      'answer in the extractive answer `loci ask` shows, no model (%)',
      ...table(['set', ...lociMethods], r.reports.map((rep) => [setCol(rep), ...lociMethods.map((m) => cell(rep, m, (x) => pct(x.extractiveAnswer)))])),
      '',
      `answer in the sources a model reads: the ${ASK_K} contexts of \`ask\`, each cut to ${SOURCE_CHARS} characters (%)`,
      ...table(['set', ...lociMethods], r.reports.map((rep) => [setCol(rep), ...lociMethods.map((m) => cell(rep, m, (x) => pct(x.sourcesAnswer)))])),
      '',
      `ask latency p50 / p95 ms (retrieval of ${ASK_K} contexts + extractive answer)`,
      ...table(['set', ...lociMethods], r.reports.map((rep) => [setCol(rep), ...lociMethods.map((m) => cell(rep, m, (x) => `${ms(x.askP50Ms)} / ${ms(x.askP95Ms)}`))])),
      '',
      'index seconds: ' + r.reports.map((rep) => `${rep.name} ${rep.indexSeconds.toFixed(1)}`).join(', '),
    );
    const trusted = r.reports.filter((rep) => rep.embedderTrust);
    if (trusted.length)
      out.push(
        '',
        "embedder trust, loci's weight for the dense ranking (coverage: share of probe sentences dense finds first over BM25's; order sensitivity: how far reversing a sentence moves its vector)",
        ...table(['set', 'probes', 'coverage', 'order sensitivity', 'dense weight'], trusted.map((rep) => [setCol(rep), ...trustCells(rep.embedderTrust!)])),
      );
  }
  if (r.skipped.length) out.push('', 'not run here: ' + r.skipped.map((s) => `${s.name} (${s.reason})`).join('; '));
  return out.join('\n');
}
