// Loaders for the multi-hop QA formats `loci bench` reads, all reduced to one shape: a pooled corpus of
// titled paragraphs (deduplicated by title + text) and questions whose gold documents are corpus indices.
import { readFileSync } from 'node:fs';
import { loadCrud } from './crud.js';
import { loadDocsQa } from './docs-qa.js';
import type { BenchDataset, BenchParagraph, BenchQuestion, LoadOptions } from './dataset.js';
import type { DatasetFormat } from './names.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw dataset JSON in several formats; each reader checks the fields it uses
type Json = Record<string, any>;

/** Pools paragraphs, deduplicating by title + text, and hands out stable corpus indices. */
class CorpusPool {
  readonly paragraphs: BenchParagraph[] = [];
  private readonly index = new Map<string, number>();
  private readonly byTitle = new Map<string, number[]>();

  add(title: string, text: string): number {
    const key = `${title}\u0000${text}`;
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.paragraphs.length;
      this.paragraphs.push({ title, text });
      this.index.set(key, i);
      const list = this.byTitle.get(title) ?? [];
      list.push(i);
      this.byTitle.set(title, list);
    }
    return i;
  }

  withTitle(title: string): number[] {
    return this.byTitle.get(title) ?? [];
  }
}

/** Reads a JSON array, a JSON object holding one, or JSON Lines. */
export function readRecords(file: string): Json[] {
  const raw = readFileSync(file, 'utf8').trim();
  if (raw.startsWith('[')) return JSON.parse(raw) as Json[];
  try {
    const whole = JSON.parse(raw);
    if (Array.isArray(whole)) return whole;
    for (const key of ['data', 'questions']) if (Array.isArray(whole[key])) return whole[key];
    return [whole];
  } catch {
    return raw.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Json);
  }
}

/** Guesses the format from the first record's fields. */
export function detectFormat(record: Json, hasCorpus: boolean): DatasetFormat {
  if (Array.isArray(record.gold_doc_ids) && Array.isArray(record.questions)) return 'crud';
  if (Array.isArray(record.notes) && typeof record.answer === 'string') return 'docsqa';
  if (hasCorpus) return 'hipporag';
  if (Array.isArray(record.paragraphs)) return 'musique';
  if (Array.isArray(record.context) && Array.isArray(record.supporting_facts)) {
    // 2WikiMultihopQA carries `evidences` and a `type` like compositional/inference/bridge_comparison.
    return 'evidences' in record || /compositional|inference|bridge_comparison/.test(String(record.type)) ? '2wiki' : 'hotpotqa';
  }
  throw new Error('Unknown dataset format: expected HotpotQA/2Wiki `context` + `supporting_facts`, MuSiQue `paragraphs`, or a HippoRAG corpus (--corpus).');
}

const joinSentences = (sentences: string[]) => sentences.map((s) => s.trim()).filter(Boolean).join(' ');

function answersOf(r: Json): string[] {
  const list: unknown[] = [];
  if (Array.isArray(r.answer)) list.push(...r.answer);
  else if (r.answer !== undefined) list.push(r.answer);
  if (Array.isArray(r.answer_aliases)) list.push(...r.answer_aliases);
  if (Array.isArray(r.possible_answers)) list.push(...r.possible_answers);
  return [...new Set(list.map((a) => String(a).trim()).filter(Boolean))];
}

/** HotpotQA and 2Wiki share the layout: context = [[title, sentences[]]], supporting_facts = [[title, sent]]. */
function loadContextFormat(records: Json[], format: DatasetFormat, pool: CorpusPool): BenchQuestion[] {
  return records.map((r, n) => {
    const local = new Map<string, number>();
    for (const [title, sentences] of r.context as [string, string[]][]) local.set(title, pool.add(title, joinSentences(sentences)));
    const goldTitles = new Set((r.supporting_facts as [string, number][]).map(([t]) => t));
    const gold = [...goldTitles].map((t) => local.get(t)).filter((i): i is number => i !== undefined);
    return { id: String(r._id ?? r.id ?? n), question: String(r.question), answers: answersOf(r), gold };
  });
}

function loadMusique(records: Json[], pool: CorpusPool): BenchQuestion[] {
  return records.map((r, n) => {
    const gold: number[] = [];
    for (const p of r.paragraphs as Json[]) {
      const i = pool.add(String(p.title), String(p.paragraph_text ?? p.text));
      if (p.is_supporting) gold.push(i);
    }
    return { id: String(r.id ?? n), question: String(r.question), answers: answersOf(r), gold: [...new Set(gold)] };
  });
}

/**
 * HippoRAG: a corpus of {title, text} and questions whose gold documents are given by title — as
 * `paragraphs` with is_supporting, `supporting_facts` [[title, …]], or `supporting_titles`.
 */
function loadHippoRag(records: Json[], corpusFile: string, pool: CorpusPool): BenchQuestion[] {
  for (const d of readRecords(corpusFile)) pool.add(String(d.title ?? ''), String(d.text ?? d.paragraph_text ?? ''));
  return records.map((r, n) => {
    const titles = new Set<string>();
    const exact: number[] = [];
    if (Array.isArray(r.paragraphs)) {
      for (const p of r.paragraphs as Json[]) {
        if (!p.is_supporting) continue;
        const text = p.text ?? p.paragraph_text;
        if (text !== undefined) exact.push(pool.add(String(p.title), String(text)));
        else titles.add(String(p.title));
      }
    }
    if (Array.isArray(r.supporting_facts)) for (const f of r.supporting_facts) titles.add(String(Array.isArray(f) ? f[0] : f));
    if (Array.isArray(r.supporting_titles)) for (const t of r.supporting_titles) titles.add(String(t));
    const gold = new Set(exact);
    for (const t of titles) for (const i of pool.withTitle(t)) gold.add(i);
    return { id: String(r.id ?? r._id ?? n), question: String(r.question), answers: answersOf(r), gold: [...gold] };
  });
}

export function loadDataset(file: string, options: LoadOptions = {}): BenchDataset {
  if (options.format === 'crud') return loadCrud([file], options).sets[0]!;
  if (options.format === 'docsqa') return loadDocsQa(file, options);
  let records = readRecords(file);
  if (options.limit !== undefined) records = records.slice(0, options.limit);
  if (records.length === 0) throw new Error(`No questions in ${file}`);
  const format = options.format ?? detectFormat(records[0]!, options.corpus !== undefined);
  if (format === 'crud' || format === 'docsqa') return loadDataset(file, { ...options, format });
  const pool = new CorpusPool();
  let questions: BenchQuestion[];
  switch (format) {
    case 'hotpotqa':
    case '2wiki':
      questions = loadContextFormat(records, format, pool);
      break;
    case 'musique':
      questions = loadMusique(records, pool);
      break;
    case 'hipporag':
      if (!options.corpus) throw new Error('The HippoRAG format needs --corpus <file> with the {title, text} passages.');
      questions = loadHippoRag(records, options.corpus, pool);
      break;
    default:
      throw new Error(`--format ${format} is read by its own loader`);
  }
  return { format, corpus: pool.paragraphs, questions };
}
