// Docs-QA: questions a user would ask of a documentation notes folder, each with a short reference answer
// and the note(s) that hold it. Scored by the share of the reference answer's words found in what a method
// returns (and recall@k of the expected notes).
import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { isNotePath } from '../engine/ingest/scan.js';
import type { BenchDataset, BenchParagraph, LoadOptions } from './dataset.js';
import { normalizeAnswer } from './metrics.js';

export const DocsQaFile = z.object({
  /** What the set covers, for the report. */
  name: z.string(),
  /** The notes folder, relative to the shared data folder (`../shared/data`) unless `--corpus` names one. */
  folder: z.string(),
  questions: z
    .array(
      z.object({
        id: z.string(),
        question: z.string().min(1),
        /** Short reference answer, in our own words. */
        answer: z.string().min(1),
        /** Paths (from the folder) of the notes that hold the answer. */
        notes: z.array(z.string()).min(1),
      }),
    )
    .min(1),
});
export type DocsQaFile = z.infer<typeof DocsQaFile>;

/** Every note under `root` (as the indexer's scan sees them: note extensions, no dot-folders), sorted. */
export function listNotes(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile() && isNotePath(e.name)) out.push(relative(root, abs).split(sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

export function readDocsQa(file: string): DocsQaFile {
  const parsed = DocsQaFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a docs-QA set: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/**
 * The set's notes folder: `--corpus` when given, else the file's `folder` under `sharedData`
 * (default: `../shared/data` from the working directory).
 */
export function docsQaFolder(set: DocsQaFile, options: { corpus?: string; sharedData?: string } = {}): string {
  if (options.corpus) return resolve(options.corpus);
  if (isAbsolute(set.folder)) return set.folder;
  return resolve(options.sharedData ?? resolve('../shared/data'), set.folder);
}

export function loadDocsQa(file: string, options: LoadOptions & { sharedData?: string } = {}): BenchDataset {
  const set = readDocsQa(file);
  const folder = docsQaFolder(set, options);
  const paths = listNotes(folder);
  if (paths.length === 0) throw new Error(`${folder} holds no notes`);
  const indexOf = new Map(paths.map((p, i) => [p, i]));
  // The notes are indexed as the app indexes them (title from front matter, heading or file name);
  // the file name stands in as title for the peer libraries.
  const corpus: BenchParagraph[] = paths.map((p) => ({
    title: basename(p, extname(p)),
    text: readFileSync(join(folder, p), 'utf8'),
    relPath: p,
  }));
  let questions = set.questions.map((q) => {
    const gold = q.notes.map((n) => {
      const i = indexOf.get(n);
      if (i === undefined) throw new Error(`${file}: question ${q.id} names ${n}, which is not a note in ${folder}`);
      return i;
    });
    return { id: q.id, question: q.question, answers: [q.answer], gold };
  });
  if (options.limit !== undefined) questions = questions.slice(0, options.limit);
  return { format: 'docsqa', corpus, questions, answerMetric: 'word-share' };
}

/** Function words: a reference answer's share is over the words that carry its content. */
const STOPWORDS = new Set(
  `a an the and or but of to in on at by for with from as is are was were be been being it its this that these those
   there here you your we our they their he she his her i me my can could should would will may might must do does did
   not no yes so if then than when which who whom what where how why into onto over under about via per each every any
   all some more most also only just has have had one`.split(/\s+/),
);

/** The content words of a text, normalised as answers are (lower case, no punctuation or accents). */
export function contentWords(text: string): Set<string> {
  return new Set(
    normalizeAnswer(text)
      .split(' ')
      .filter((w) => w.length > 1 && !STOPWORDS.has(w)),
  );
}

/** Share of the reference answer's content words present in the text; null when the reference has none. */
export function wordShare(text: string, reference: string): number | null {
  const ref = contentWords(reference);
  if (ref.size === 0) return null;
  const have = contentWords(text);
  let found = 0;
  for (const w of ref) if (have.has(w)) found++;
  return found / ref.size;
}
