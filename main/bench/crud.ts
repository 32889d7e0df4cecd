// CRUD-RAG (Chinese news): question sets whose items carry short-answer sub-questions and the ids of the
// news articles holding their key facts, over a pool drawn from the news corpus — every gold article plus
// distractors up to the pool size. Articles are titled by an id, so a title carries no signal.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { BenchDataset, BenchParagraph, BenchQuestion, LoadOptions } from './dataset.js';

export const DEFAULT_CRUD_POOL = 10_000;
/** CRUD-RAG's answer for a sub-question the article cannot answer: not a span to look for. */
const NOT_INFERABLE = '无法推断';

interface CrudItem {
  id: string;
  questions: string[];
  answers: string[];
  gold_doc_ids: number[];
}

export interface CrudSets {
  /** One pool shared by every set (so a suite indexes it once). */
  corpus: BenchParagraph[];
  /** One dataset per question file, in the order given, each over `corpus`. */
  sets: BenchDataset[];
}

/** The news file beside the question files unless named (`--corpus`). */
export function defaultNewsFile(questionFile: string): string {
  return join(dirname(questionFile), 'news.jsonl.gz');
}

/** The title a pooled article gets: its id, nothing a question could match. */
export const crudTitle = (id: number) => `news-${id}`;

/**
 * A deterministic, well-mixed order of article ids (FNV-1a over the id, then a 32-bit finaliser):
 * the distractors are the first ids in this order, the same on every machine and run.
 */
export function distractorOrder(id: number): number {
  let h = 0x811c9dc5;
  for (const ch of `crud-pool:${id}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

function readItems(file: string): CrudItem[] {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of CRUD-RAG items`);
  return parsed.map((raw, n) => {
    const r = raw as Partial<CrudItem>;
    if (!Array.isArray(r.questions) || !Array.isArray(r.answers) || !Array.isArray(r.gold_doc_ids)) {
      throw new Error(`${file}: item ${n} lacks questions, answers or gold_doc_ids`);
    }
    return { id: String(r.id ?? n), questions: r.questions.map(String), answers: r.answers.map(String), gold_doc_ids: r.gold_doc_ids.map(Number) };
  });
}

/** Parsed news dumps, by path: a suite or a test reads the 54 MB file once per process. */
const newsCache = new Map<string, Map<number, string>>();

/** Every article of the news dump as id → text (the file is gzipped JSON Lines of {id, text}). */
function readNews(file: string): Map<number, string> {
  let news = newsCache.get(file);
  if (!news) newsCache.set(file, (news = parseNews(file)));
  return news;
}

function parseNews(file: string): Map<number, string> {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  const news = new Map<number, string>();
  for (const [n, line] of lines.entries()) {
    if (!line.trim()) continue;
    let rec: { id?: unknown; text?: unknown };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      throw new Error(`${file}: line ${n + 1} is not JSON`);
    }
    if (typeof rec.id !== 'number' || typeof rec.text !== 'string') throw new Error(`${file}: line ${n + 1} lacks a numeric id and a text`);
    news.set(rec.id, rec.text);
  }
  return news;
}

/**
 * Reads CRUD-RAG question files over one pool of `pool` articles (default 10,000): the gold articles of all
 * the files plus the first distractors in `distractorOrder`. Each sub-question is one bench question whose
 * gold documents are its item's articles; answers marked not inferable count for recall only.
 */
export function loadCrud(files: string[], options: LoadOptions = {}): CrudSets {
  if (files.length === 0) throw new Error('loadCrud needs at least one question file');
  const poolSize = options.pool ?? DEFAULT_CRUD_POOL;
  if (!Number.isInteger(poolSize) || poolSize <= 0) throw new Error(`--pool takes a positive integer, got ${options.pool}`);
  const itemsPerFile = files.map(readItems);
  const newsFile = options.corpus ?? defaultNewsFile(files[0]!);
  const news = readNews(newsFile);

  const goldIds = new Set(itemsPerFile.flat().flatMap((it) => it.gold_doc_ids));
  const missing = [...goldIds].filter((id) => !news.has(id));
  if (missing.length) throw new Error(`${newsFile} lacks gold article(s) ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}`);
  const ids = [...goldIds].sort((a, b) => a - b);
  if (ids.length < poolSize) {
    const distractors = [...news.keys()]
      .filter((id) => !goldIds.has(id))
      .map((id) => [distractorOrder(id), id] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .slice(0, poolSize - ids.length)
      .map(([, id]) => id);
    ids.push(...distractors);
  }
  const corpus: BenchParagraph[] = ids.map((id) => ({ title: crudTitle(id), text: news.get(id)! }));
  const indexOfId = new Map(ids.map((id, i) => [id, i]));

  const sets = itemsPerFile.map((items, f): BenchDataset => {
    let questions: BenchQuestion[] = items.flatMap((it) => {
      const gold = it.gold_doc_ids.map((id) => indexOfId.get(id)!);
      const n = Math.min(it.questions.length, it.answers.length);
      return it.questions.slice(0, n).map((q, j) => {
        const a = it.answers[j]!.trim();
        return { id: `${it.id}#${j}`, question: q, answers: a && a !== NOT_INFERABLE ? [a] : [], gold };
      });
    });
    if (options.limit !== undefined) {
      // Every item's first sub-question, then every item's second…: a short run still spans the items.
      const rank = (q: BenchQuestion) => Number(q.id.slice(q.id.lastIndexOf('#') + 1));
      questions = questions
        .map((q, i) => [rank(q), i, q] as const)
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .slice(0, options.limit)
        .map(([, , q]) => q);
    }
    if (questions.length === 0) throw new Error(`No questions in ${basename(files[f]!)}`);
    return { format: 'crud', corpus, questions, answerMetric: 'contains' };
  });
  return { corpus, sets };
}
