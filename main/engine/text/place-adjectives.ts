// The adjective of a place and the place (Ethiopian ↔ Ethiopia, Swedish ↔ Sweden, Parisian ↔ Paris), from
// WordNet's pertainym pointers: an adjective that "pertains to" a noun filed under noun.location. A stem
// does not join them ("ethiopian" and "ethiopia" stay two words), so a question about "the Ethiopian
// beans" missed the note "Ethiopia Guji Natural". Only places: WordNet's other proper pertainyms
// (Orthodox → Judaism, Roman → Romanism) join words people do not mean as one.
import { readFileSync } from 'node:fs';
import { parseSynset, wordnetFile } from './wordnet.js';

/** WordNet's lexicographer file for places (wndb(5WN): lex_filenum 15, noun.location). */
const LOCATION_FILE = '15';

interface PlaceTable {
  /** ethiopian → {ethiopia} */
  placesOf: Map<string, Set<string>>;
  /** ethiopia → {ethiopian} */
  adjectivesOf: Map<string, Set<string>>;
}

let table: PlaceTable | null = null;

/**
 * The places an adjective names, or the adjectives of a place (lowercase, single words); empty when none.
 * A place gives its adjectives only when written as a name (`asName`, capitalised): "turkey" the bird and
 * "china" the porcelain are no places, while "Ethiopian" and "ethiopian" are the same adjective.
 */
export function placeWordsOf(word: string, asName: boolean): ReadonlySet<string> {
  table ??= loadPlaceAdjectives();
  return table.placesOf.get(word) ?? (asName ? table.adjectivesOf.get(word) : undefined) ?? NONE;
}

const NONE: ReadonlySet<string> = new Set();

/** Reads data.adj for pertainym pointers (`\ offset n st`), then the noun synsets they point to, kept when places. */
function loadPlaceAdjectives(): PlaceTable {
  const wanted = new Map<string, { adjective: string; target: number }[]>();
  for (const line of linesWith(readFileSync(wordnetFile('data.adj'), 'latin1'), ' \\ ')) {
    const synset = parseSynset(line)!;
    for (const ptr of synset.pointers) {
      const adjective = ptr.symbol === '\\' && ptr.pos === 'n' ? synset.words[ptr.source - 1] : undefined;
      if (!adjective || !isProperWord(adjective)) continue;
      wanted.set(ptr.offset, [...(wanted.get(ptr.offset) ?? []), { adjective, target: ptr.target }]);
    }
  }
  const out: PlaceTable = { placesOf: new Map(), adjectivesOf: new Map() };
  const link = (to: Map<string, Set<string>>, a: string, b: string) => {
    if (a === b) return;
    const set = to.get(a) ?? new Set<string>();
    set.add(b);
    to.set(a, set);
  };
  // A synset's offset is its line's byte offset in the data file: those lines are read where they stand,
  // not found by splitting 15 MB into lines. (One read of the file: the packaged app reads it from its
  // asar archive, where opening a file by descriptor would first copy it out.)
  const nouns = readFileSync(wordnetFile('data.noun'));
  for (const [offset, links] of wanted) {
    const at = parseInt(offset, 10);
    const end = nouns.indexOf(0x0a, at);
    const synset = parseSynset(nouns.toString('latin1', at, end < 0 ? undefined : end));
    if (synset?.offset !== offset || synset.lexFile !== LOCATION_FILE) continue;
    for (const { adjective, target } of links) {
      const place = synset.words[target - 1];
      if (!place || !isProperWord(place)) continue;
      link(out.placesOf, adjective.toLowerCase(), place.toLowerCase());
      link(out.adjectivesOf, place.toLowerCase(), adjective.toLowerCase());
    }
  }
  return out;
}

/** The lines of `text` that hold `mark`, found by searching for it rather than splitting 3 MB into lines. */
function* linesWith(text: string, mark: string): Generator<string> {
  for (let at = text.indexOf(mark); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const end = text.indexOf('\n', at);
    yield text.slice(start, end < 0 ? undefined : end);
    if (end < 0) return;
    at = text.indexOf(mark, end);
  }
}

/** A capitalised single word: a proper name, not a phrase (WordNet joins phrases with '_'). */
function isProperWord(word: string): boolean {
  return /^\p{Lu}/u.test(word) && /^[\p{L}-]+$/u.test(word);
}
