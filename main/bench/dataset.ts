// The one shape every question set is loaded into (datasets.ts, crud.ts, docs-qa.ts): a pooled corpus of
// titled paragraphs and questions whose gold documents are corpus indices. Declared apart from the
// loaders so the loaders import it, and not each other.
import type { DatasetFormat } from './names.js';

export interface BenchParagraph {
  /** Empty when the document has no title of its own: the indexer then derives one as it does for a note. */
  title: string;
  text: string;
  /** The note's path when the corpus is a notes folder (docs-QA); paragraphs are given synthetic paths otherwise. */
  relPath?: string;
}

/**
 * How an answer is scored: `contains` — any of the answer strings occurs in the text (multi-hop QA, CRUD);
 * `word-share` — the share of the reference answer's content words that occur in the text (docs-QA).
 */
export type AnswerMetric = 'contains' | 'word-share';

export interface BenchQuestion {
  id: string;
  question: string;
  /** The answer and its aliases; answer-string recall looks for any of them. */
  answers: string[];
  /** Indices into the corpus of the supporting paragraphs. */
  gold: number[];
}

export interface BenchDataset {
  format: DatasetFormat;
  corpus: BenchParagraph[];
  questions: BenchQuestion[];
  /** `contains` when absent. */
  answerMetric?: AnswerMetric;
}

export interface LoadOptions {
  format?: DatasetFormat;
  /** HippoRAG passages; for `crud` the news corpus (news.jsonl.gz); for `docsqa` the notes folder. */
  corpus?: string;
  limit?: number;
  /** `crud`: documents in the pool, gold articles included (default 10,000). */
  pool?: number;
}
