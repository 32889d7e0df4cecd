// Character bigrams of Han text as 32-bit keys, and how many chunks of the index hold each: the document
// frequencies the bigram re-reading of BM25's passages weighs by (han-bigrams.ts). Counted per note and
// kept across index generations, so an edit counts again only the notes it rewrote.

export const isHan = (c: number): boolean => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff);

/** Two adjacent Han characters (basic plane) as one 32-bit key. */
export const keyOf = (a: number, b: number): number => ((a << 16) | b) >>> 0;

/** The Han bigram keys of a text, in order, with repeats (Han characters have no case or width to normalise). */
export function hanBigrams(text: string): number[] {
  const out: number[] = [];
  let prev = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHan(c)) {
      if (prev >= 0) out.push(keyOf(prev, c));
      prev = c;
    } else prev = -1;
  }
  return out;
}

/** The same keys in a typed array (no boxed numbers: most keys exceed 2³¹). */
export function hanBigramKeys(text: string): Uint32Array {
  const out = new Uint32Array(Math.max(0, text.length - 1));
  let n = 0;
  let prev = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHan(c)) {
      if (prev >= 0) out[n++] = keyOf(prev, c);
      prev = c;
    } else prev = -1;
  }
  return out.subarray(0, n);
}

/**
 * Document frequencies of every Han bigram over the index's chunks: an open-addressing hash table whose
 * slots are (key, df, last chunk counted) triples in one typed array, so a lookup touches one cache line.
 * Key 0 marks an empty slot (no Han bigram has key 0); a key whose chunks are all gone keeps its slot
 * with df 0.
 */
export interface BigramStats {
  table: Uint32Array;
  chunks: number;
  /** Mean bigrams per chunk (the length BM25 normalises by). */
  avgLength: number;
}

const SLOT = 3;

/** The slot (index of its key in the table) holding the key, or the empty slot where it would go. */
function slotOf(table: Uint32Array, key: number): number {
  const slots = table.length / SLOT;
  // Fibonacci hashing takes the product's high bits (its low bits follow the key's low bits alone).
  let i = Math.imul(key, 0x9e3779b1) >>> (Math.clz32(slots) + 1);
  while (table[i * SLOT] !== 0 && table[i * SLOT] !== key) i = (i + 1) & (slots - 1);
  return i * SLOT;
}

export function dfOf(s: BigramStats, key: number): number {
  const j = slotOf(s.table, key);
  return s.table[j] === key ? s.table[j + 1]! : 0;
}

/** A chunk as counted: its distinct keys (to take it out again), and how many bigrams it has with repeats. */
interface CountedChunk {
  keys: Uint32Array;
  length: number;
}

/** The table being counted into, a chunk at a time; a chunk counted can be taken out again. */
class BigramTable {
  private table = new Uint32Array((1 << 16) * SLOT);
  private used = 0;
  private chunks = 0;
  private total = 0;
  /** Numbers each chunk counted, so a key repeated in one counts once (the slot keeps the last). */
  private stamp = 0;
  private distinct = new Uint32Array(1024);

  add(text: string): CountedChunk {
    const stamp = ++this.stamp;
    if (this.distinct.length < text.length) this.distinct = new Uint32Array(text.length);
    let n = 0;
    let length = 0;
    let prev = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (!isHan(c)) {
        prev = -1;
        continue;
      }
      if (prev >= 0) {
        length++;
        const key = keyOf(prev, c);
        let j = slotOf(this.table, key);
        if (this.table[j] === 0) {
          if (2 * SLOT * (this.used + 1) > this.table.length) {
            this.grow();
            j = slotOf(this.table, key);
          }
          this.table[j] = key;
          this.used++;
        }
        if (this.table[j + 2] !== stamp) {
          this.table[j + 2] = stamp;
          this.table[j + 1]!++;
          this.distinct[n++] = key;
        }
      }
      prev = c;
    }
    this.chunks++;
    this.total += length;
    return { keys: this.distinct.slice(0, n), length };
  }

  remove(c: CountedChunk): void {
    this.chunks--;
    this.total -= c.length;
    for (const key of c.keys) this.table[slotOf(this.table, key) + 1]!--;
  }

  stats(): BigramStats {
    return { table: this.table, chunks: this.chunks, avgLength: this.chunks ? this.total / this.chunks : 1 };
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += SLOT) {
      if (old[i] === 0) continue;
      this.table.set(old.subarray(i, i + SLOT), slotOf(this.table, old[i]!));
    }
  }
}

/** The statistics of the given texts, one chunk each. */
export function bigramStats(texts: Iterable<{ text: string }>): BigramStats {
  const table = new BigramTable();
  for (const { text } of texts) table.add(text);
  return table.stats();
}

/**
 * The index's bigram statistics kept note by note: an update counts again the notes whose version
 * changed (store/note-versions.ts) and takes out those gone, from each note's own counted chunks.
 */
export class NoteBigramCounts {
  private table = new BigramTable();
  private byNote = new Map<number, { version: string | null; chunks: CountedChunk[] }>();

  /** `textsOf` reads the chunk texts of the given notes ('all': of every note). */
  update(versions: Map<number, string | null>, textsOf: (docIds: number[] | 'all') => Iterable<{ docId: number; text: string }>): BigramStats {
    const stale: number[] = [];
    for (const [id, version] of versions) if (version === null || this.byNote.get(id)?.version !== version) stale.push(id);
    const staleSet = new Set(stale);
    for (const [id, note] of this.byNote) {
      if (versions.has(id) && !staleSet.has(id)) continue;
      for (const c of note.chunks) this.table.remove(c);
      this.byNote.delete(id);
    }
    if (stale.length === 0) return this.table.stats();
    // Versionless until every chunk is counted: a read that fails half-way leaves them stale for the next update.
    for (const id of stale) this.byNote.set(id, { version: null, chunks: [] });
    for (const { docId, text } of textsOf(stale.length === versions.size ? 'all' : stale)) {
      const note = this.byNote.get(docId);
      if (!note) continue;
      note.chunks.push(this.table.add(text));
    }
    for (const id of stale) this.byNote.get(id)!.version = versions.get(id)!;
    return this.table.stats();
  }
}
