// Whether a corpus's titles name things: the share of title mentions that other notes write as a name,
// capitalised in mid-sentence ("directed by Kenneth Branagh") rather than as a common word ("add a
// widget to the system"). Wikipedia's titles are names; a documentation folder's are often topics; Han
// text has no case, so it says nothing there (null). Read from the notes themselves, no model.
import type { Db } from '../store/db.js';
import { chunkTexts } from '../store/retrieval.js';
import type { TitleMentions } from '../graph/walk/title-mentions.js';

/** Mentions read at most (evenly spaced over the corpus): enough for a share, bounded at any size. */
const SAMPLE = 2_000;
/** Fewer mid-sentence mentions than this say nothing of the corpus. */
const MIN_MENTIONS = 10;

const WORD = /[\p{L}\p{N}]+/gu;

interface Token {
  lower: string;
  /** Written with a capital first letter (null: the script has no case). */
  capital: boolean | null;
  /** A sentence, line or list item starts before it (so its capital says nothing). */
  opens: boolean;
}

/** A text's words in order, each with its case and whether it opens a sentence. */
export function tokens(text: string): Token[] {
  const out: Token[] = [];
  let last = 0;
  for (const m of text.matchAll(WORD)) {
    const gap = text.slice(last, m.index);
    const first = m[0][0]!;
    const cased = first.toLowerCase() !== first.toUpperCase();
    out.push({ lower: m[0].toLowerCase(), capital: cased ? first !== first.toLowerCase() : null, opens: out.length === 0 || /[.!?:;#>*\n"“([|]|-\s/u.test(gap) });
    last = m.index + m[0].length;
  }
  return out;
}

/** The first mid-sentence occurrence of a title key among a text's words: true when written capitalised, null when none. */
export function writtenAsName(words: Token[], key: string): boolean | null {
  const k = key.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (k.length === 0) return null;
  for (let i = 0; i + k.length <= words.length; i++) {
    if (words[i]!.opens || words[i]!.lower !== k[0]) continue;
    let n = 1;
    while (n < k.length && words[i + n]!.lower === k[n]) n++;
    if (n === k.length) return words[i]!.capital;
  }
  return null;
}

/** Share of the corpus's title mentions written as names (0–1), or null when too few can tell. */
export function titleNameShare(db: Db, mentions: TitleMentions): number | null {
  const all: { chunkId: number; key: string }[] = [];
  for (const list of mentions.byDoc.values()) for (const m of list) if (m.chunkId >= 0) all.push(m);
  const step = Math.max(1, all.length / SAMPLE);
  const sample: typeof all = [];
  for (let i = 0; i < all.length && sample.length < SAMPLE; i = Math.floor(i + step)) sample.push(all[i]!);
  const words = new Map(chunkTexts(db, [...new Set(sample.map((m) => m.chunkId))]).map((c) => [c.id, tokens(c.text)]));
  let told = 0;
  let names = 0;
  for (const m of sample) {
    const w = words.get(m.chunkId);
    const asName = w === undefined ? null : writtenAsName(w, m.key);
    if (asName === null) continue;
    told++;
    if (asName) names++;
  }
  return told >= MIN_MENTIONS ? names / told : null;
}
