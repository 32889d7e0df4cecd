// Which notes' text mentions another note's title (or links to it), found from the words the index
// already segmented (the chunks' FTS text), not per question: the second hop of a multi-hop question
// ("the founder of Kestrel Coffee Works" → the note titled "Mara Lindqvist") is a title of one note
// written in another. A word trie over the titles walks each chunk once, so the scan costs one map
// lookup per word and no segmenter runs; a note's hits are kept until the note is written again or a
// title comes or goes (NoteTitleScans), and the mentions are assembled from them per index generation.
import { segmentWords } from '../../text/segment.js';
import { isStopWord } from '../../text/stopwords.js';
import { hasHan } from '../../text/lang.js';
import { normalizeName } from '../../store/names.js';

/** Longest title, in words, looked for in a note's text. */
export const MAX_TITLE_WORDS = 8;

/** Title variants: the whole title and, for "Name (qualifier)", the bare name. */
export function titleVariants(title: string): string[] {
  const bare = title.replace(/\s*\([^)]*\)\s*$/, '');
  return bare !== title && bare ? [title, bare] : [title];
}

/** A word as titles are matched: possessives dropped so "Korn's" meets "Korn". */
export const matchWord = (w: string): string => w.replace(/['’]s$/, '');

/** Words for title matching: segmented (jieba for Chinese), possessives dropped. */
export function matchWords(text: string): string[] {
  return segmentWords(text).map(matchWord);
}

/** Keys a title is found by in running text. */
export function titleKeys(title: string): string[] {
  return titleVariants(title)
    .map((t) => matchWords(t).join(' '))
    .filter((k) => k.length > 1);
}

/** Keys a wikilink target meets a title by (links are stored normalised with normalizeName). */
export function linkKeys(title: string): string[] {
  return titleVariants(title)
    .map(normalizeName)
    .filter((k) => k.length > 1);
}

/** A note as other notes name it: in prose by its title or an alias, in links also by its file name. */
export interface NamedNote {
  id: number;
  title: string;
  /** Other names the note's front matter gives it (frontMatterAliases). */
  aliases?: string[];
  /** The note's file name less its extension: what Obsidian's and Foam's links name a note by. */
  fileName?: string;
}

/** Keys the note is found by in running text: its title's and its aliases'. */
export function noteTitleKeys(note: NamedNote): string[] {
  return [...new Set([note.title, ...(note.aliases ?? [])].flatMap(titleKeys))];
}

/** Keys a wikilink target meets the note's names by: its title's and its aliases'. */
export function noteNameKeys(note: NamedNote): string[] {
  return [...new Set([note.title, ...(note.aliases ?? [])].flatMap(linkKeys))];
}

/**
 * Keys a wikilink target meets the note's file name by. A link names a note by its file even where an H1
 * or front matter titles it otherwise (`[[backlinking]]` → "Backlinks"); a file name is no name of a thing
 * ("index", "readme"), so it only resolves links, and only where no note is titled so.
 */
export function fileNameKeys(note: NamedNote): string[] {
  return note.fileName ? linkKeys(note.fileName) : [];
}

/** A one-word title that is a short or common word ("Time", "Up") would match everywhere. */
export function specificEnough(key: string): boolean {
  if (key.includes(' ')) return true;
  if (isStopWord(key)) return false;
  return hasHan(key) ? key.length >= 2 : key.length >= 4;
}

export interface MentionChunk {
  chunkId: number;
  docId: number;
  /** The chunk's words as the index segmented them, space-separated (the FTS column). */
  seg: string;
  isCode: boolean;
}

export interface Mention {
  /** The mentioned note. */
  docId: number;
  /** The title (or link target) as it was found. */
  key: string;
  /** The first chunk of the mentioning note that holds it (−1 for a wikilink, placed by its line elsewhere). */
  chunkId: number;
}

export interface TitleMentions {
  /** Title key (titleKeys) → the notes it titles, in the order the titles were given. */
  byTitle: Map<string, number[]>;
  /** Note → the other notes its prose mentions by title or links to, in the order first found. */
  byDoc: Map<number, Mention[]>;
  /** Title key → how many notes' text (any chunk, the note's own title included) holds it. */
  noteFrequency: Map<string, number>;
  /** Indexed notes. */
  notes: number;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Notes titled by the words up to here, when they form a whole title key. */
  key?: string;
}

/** A link from one note to another, its target resolved (link-resolution.ts). */
export interface ResolvedLink {
  docId: number;
  targetDocId: number;
  /** The target as written, normalised (normalizeLinkTarget). */
  key: string;
}

/** The notes' title keys as a word trie, with what a scan's hits are attributed by. */
export interface TitleTrie {
  root: TrieNode;
  /** Title key → the notes it titles, in the order the titles were given. */
  byTitle: Map<string, number[]>;
  /** Note → every name it goes by (title, aliases, file name): its own, never a mention of another. */
  own: Map<number, Set<string>>;
  /** The keys the trie finds, sorted: hits found with another trie may miss keys or hold keys gone. */
  fingerprint: string;
  maxWords: number;
}

/** A title key found in a note's text. */
export interface TitleHit {
  key: string;
  chunkId: number;
  isCode: boolean;
}

export function titleTrie(titles: NamedNote[], maxWords = MAX_TITLE_WORDS): TitleTrie {
  const byTitle = new Map<string, number[]>();
  const own = new Map<number, Set<string>>();
  const root: TrieNode = { next: new Map() };
  const found: string[] = [];
  for (const t of titles) {
    const keys = noteTitleKeys(t);
    own.set(t.id, new Set([...keys, ...noteNameKeys(t), ...fileNameKeys(t)]));
    for (const key of keys) {
      const list = byTitle.get(key);
      if (list) list.push(t.id);
      else byTitle.set(key, [t.id]);
      const words = key.split(' ');
      if (words.length > maxWords) continue;
      let node = root;
      for (const w of words) {
        let child = node.next.get(w);
        if (!child) node.next.set(w, (child = { next: new Map() }));
        node = child;
      }
      if (node.key === undefined) found.push(key);
      node.key = key;
    }
  }
  return { root, byTitle, own, fingerprint: `${maxWords}\n${found.sort().join('\n')}`, maxWords };
}

/** Every title key in the chunks' words, in text order (code chunks too: they count toward a key's note frequency). */
function scanChunks(trie: TitleTrie, chunks: Iterable<MentionChunk>): TitleHit[] {
  const hits: TitleHit[] = [];
  for (const c of chunks) {
    const words = c.seg.split(' ').map(matchWord);
    for (let i = 0; i < words.length; i++) {
      let node = trie.root.next.get(words[i]!);
      for (let n = 1; node && n <= trie.maxWords; n++) {
        if (node.key !== undefined) hits.push({ key: node.key, chunkId: c.chunkId, isCode: c.isCode });
        const w = words[i + n];
        node = w === undefined ? undefined : node.next.get(w);
      }
    }
  }
  return hits;
}

/**
 * Which notes mention which from each note's hits (in note order) and the links between notes. Prose
 * only makes a mention (code names things it does not talk about); a note's own names never do.
 */
export function mentionsFrom(trie: TitleTrie, notes: number, hitsByNote: Iterable<[number, TitleHit[]]>, links: Iterable<ResolvedLink>): TitleMentions {
  const byDoc = new Map<number, Mention[]>();
  const foundIn = new Map<number, Set<number>>();
  const mention = (docId: number, key: string, targets: number[] | undefined, chunkId: number) => {
    if (!targets || !specificEnough(key)) return;
    let seen = foundIn.get(docId);
    if (!seen) foundIn.set(docId, (seen = new Set()));
    let list = byDoc.get(docId);
    for (const d of targets) {
      if (d === docId || seen.has(d)) continue;
      seen.add(d);
      if (!list) byDoc.set(docId, (list = []));
      list.push({ docId: d, key, chunkId });
    }
  };
  const noteFrequency = new Map<string, number>();
  for (const [docId, hits] of hitsByNote) {
    const counted = new Set<string>();
    const own = trie.own.get(docId);
    for (const h of hits) {
      if (!counted.has(h.key)) {
        counted.add(h.key);
        noteFrequency.set(h.key, (noteFrequency.get(h.key) ?? 0) + 1);
      }
      if (!h.isCode && !own?.has(h.key)) mention(docId, h.key, trie.byTitle.get(h.key), h.chunkId);
    }
  }
  // A link to a short or common name ("TLS", "Tag") is no bridge here either: letting it be one moved a
  // single SilverBullet question, down. Nor does a link narrow a title several notes share
  // in the same note's prose to the linked one (one question down too).
  for (const l of links) mention(l.docId, l.key, [l.targetDocId], -1);
  return { byTitle: trie.byTitle, byDoc, noteFrequency, notes };
}

/** The hits of each note's chunks, chunks read note by note. */
function* hitsByNote(trie: TitleTrie, chunks: Iterable<MentionChunk>): Generator<[number, TitleHit[]]> {
  let docId: number | null = null;
  let run: MentionChunk[] = [];
  for (const c of chunks) {
    if (c.docId !== docId) {
      if (docId !== null) yield [docId, scanChunks(trie, run)];
      docId = c.docId;
      run = [];
    }
    run.push(c);
  }
  if (docId !== null) yield [docId, scanChunks(trie, run)];
}

/**
 * Each note's title hits, kept across index generations: after an edit only the notes whose chunks
 * changed are scanned again (the scan of every chunk took 0.6 s of the first question after an edit at
 * 10k news), all of them when a title key came or went.
 */
export class NoteTitleScans {
  private fingerprint = '';
  private byNote = new Map<number, { version: string; hits: TitleHit[] }>();

  /**
   * The hits of each note, in the order given. A note's `version` names its chunks as written (null:
   * scan it every time); `chunksOf` reads the chunks of the given notes, note by note ('all': every note).
   */
  hits(trie: TitleTrie, notes: { id: number; version: string | null }[], chunksOf: (docIds: number[] | 'all') => Iterable<MentionChunk>): [number, TitleHit[]][] {
    if (trie.fingerprint !== this.fingerprint) {
      this.fingerprint = trie.fingerprint;
      this.byNote.clear();
    }
    const stale = notes.filter((n) => n.version === null || this.byNote.get(n.id)?.version !== n.version);
    const fresh = new Map(hitsByNote(trie, chunksOf(stale.length === notes.length ? 'all' : stale.map((n) => n.id))));
    const kept = new Map<number, { version: string; hits: TitleHit[] }>();
    const out: [number, TitleHit[]][] = notes.map((n) => {
      const before = this.byNote.get(n.id);
      // A stale note whose chunks are gone has no hits (a note with no version never matches one kept).
      const hits = fresh.get(n.id) ?? (before?.version === n.version ? before.hits : []);
      if (n.version !== null) kept.set(n.id, { version: n.version, hits });
      return [n.id, hits];
    });
    this.byNote = kept;
    return out;
  }
}

/**
 * How specific a title is in this corpus: IDF of the notes whose text holds it, scaled to 0–1 (1: one
 * note). A title that half the notes mention ("Markdown" in a documentation folder) is a hub, not a
 * bridge, and a question naming it says little; an entity name mentioned by two notes is a bridge.
 */
export function titleSpecificity(m: TitleMentions, title: string): number {
  if (m.notes <= 1) return 1;
  // Asked per question for every title it names and every bridged note: segment each title once per index generation.
  let known = specificityByTitle.get(m);
  if (!known) specificityByTitle.set(m, (known = new Map()));
  let s = known.get(title);
  if (s === undefined) {
    const df = m.noteFrequency.get(matchWords(title).join(' ')) ?? 0;
    s = Math.log(m.notes / Math.max(1, df)) / Math.log(m.notes);
    known.set(title, s);
  }
  return s;
}

const specificityByTitle = new WeakMap<TitleMentions, Map<string, number>>();

/**
 * Share of the notes whose text names or links to another note: how far the notes of this corpus refer
 * to each other. Wikipedia paragraphs and documentation folders: 20–98% (bench dev sets); news with id
 * titles: none — there the only paths between notes are shared words, which BM25 already counts.
 */
export function referencingShare(m: TitleMentions): number {
  if (m.notes === 0) return 0;
  let referencing = 0;
  for (const list of m.byDoc.values()) if (list.length) referencing++;
  return referencing / m.notes;
}
