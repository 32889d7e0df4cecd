import type { ExtractedFci, ParsedChunk } from '../../types.js';
import { cleanLine, listIndent } from './clean.js';

// ICU's sentence rules are the same for every locale we care about, and they know 。！？ as well as . ! ?
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

const HAN = /\p{Script=Han}/gu;
const LETTER = /\p{L}/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const CODE_CHARS = /[{}()[\]=<>;$\\|_~^]/g;

/** A run of cleaned text whose sentences may cross line ends, with where each source line begins in it. */
interface Passage {
  text: string;
  lineStarts: { offset: number; line: number }[];
  /** Indentation of the list marker when the passage is a list item, else null (paragraph, row, heading). */
  itemIndent: number | null;
  /** A list item whose whole text is one link ("- [[Journal]]"): navigation, not a statement. */
  linkOnly: boolean;
}

/** A paragraph or list item of a prose chunk: the structure fast-mode mind maps group sentences by. */
export interface SentencePassage {
  chunkOrd: number;
  text: string;
  itemIndent: number | null;
}

export interface SentenceSplit {
  fcis: ExtractedFci[];
  /** Every passage of every prose chunk, in note order (also those that yielded no FCI). */
  passages: SentencePassage[];
  /** passageOf[i] is the index in `passages` of fcis[i]. */
  passageOf: number[];
  /**
   * The sentences alone, as entities and triples are read from: a list fact stands here as its lead-in
   * sentence (or not at all when that is no fact alone), since "A; B; C" is no sentence to parse.
   */
  sentences: ExtractedFci[];
}

/**
 * Fast-mode FCIs: the sentences of a note's prose chunks, cleaned of Markdown, with their source lines;
 * a sentence leading in a list of short items ("Loci runs on:" + "- Linux", "- macOS") is one fact with
 * them, and so is a heading with the list of short items right under it ("## Requirements" + "- Node 20").
 */
export function extractSentenceFcis(chunks: ParsedChunk[]): ExtractedFci[] {
  return splitSentences(chunks).fcis;
}

/** FCIs together with the paragraphs and list items they come from. */
export function splitSentences(chunks: ParsedChunk[]): SentenceSplit {
  const fcis: ExtractedFci[] = [];
  const passages: SentencePassage[] = [];
  const passageOf: number[] = [];
  const sentenceFcis: ExtractedFci[] = [];
  let previous: ParsedChunk | null = null;
  for (const chunk of chunks) {
    const follows = previous;
    previous = chunk;
    if (chunk.isCode) continue;
    const chunkPassages = passagesOf(chunk);
    const headed = opensItsSection(chunk, follows) ? headingListFact(chunk, chunkPassages) : null;
    if (headed) {
      fcis.push(headed);
      // The fact belongs with the list's first item, which is the passage pushed next.
      passageOf.push(passages.length);
    }
    chunkPassages.forEach((passage, p) => {
      const passageIndex = passages.length;
      passages.push({ chunkOrd: chunk.ord, text: passage.text, itemIndent: passage.itemIndent });
      const sentences = [...sentencesOf(passage.text)];
      const list = passage.itemIndent === null ? shortListAfter(chunkPassages, p) : null;
      sentences.forEach((seg, s) => {
        const text = seg.segment.trim();
        const start = seg.index + (seg.segment.length - seg.segment.trimStart().length);
        const leadsList = list !== null && s === sentences.length - 1 && LEAD_IN.test(text);
        const alone = sentenceFact(chunk.ord, passage, start, text);
        if (alone) sentenceFcis.push(alone);
        const fci = leadsList ? listFact(chunk.ord, passage, start, text, list) : alone;
        if (!fci) return;
        fcis.push(fci);
        passageOf.push(passageIndex);
      });
    });
  }
  return { fcis, passages, passageOf, sentences: sentenceFcis };
}

/** A sentence of a passage as an FCI, or null when it is no statement. */
function sentenceFact(chunkOrd: number, passage: Passage, start: number, text: string): ExtractedFci | null {
  if (!isFactLike(text)) return null;
  // Cite the lines of the words, not of stray punctuation that ICU glued on at either end.
  const firstWord = text.search(WORD_CHAR);
  return { chunkOrd, text, lineFrom: lineAt(passage, start + firstWord), lineTo: lineAt(passage, start + lastWordAt(text)) };
}

/** Where the text's last letter or digit is (0 when it has none). */
function lastWordAt(text: string): number {
  let at = text.length - 1;
  while (at > 0 && !WORD_CHAR.test(text[at]!)) at--;
  return at;
}

/** A sentence that introduces what follows it ("Loci runs on:"). */
const LEAD_IN = /[:：]$/;

/** A list fact (lead-in and items) stays a sentence's length, so it neither floods an answer nor blurs its vector. */
const MAX_LIST_FACT_CHARS = 320;

/**
 * The list a lead-in paragraph introduces, when some of its items are too short to be facts on their
 * own ("- Linux", "- Windows (64-bit)"): its top-level items, in order, up to the next paragraph. Null
 * when there is no such list, or it is all links (navigation); whether it reads as code is judged on the
 * whole fact (listFact).
 */
function shortListAfter(passages: Passage[], leadIn: number): Passage[] | null {
  const first = passages[leadIn + 1];
  if (!first || first.itemIndent === null) return null;
  const items: Passage[] = [];
  for (let p = leadIn + 1; p < passages.length; p++) {
    const item = passages[p]!;
    if (item.itemIndent === null || item.itemIndent < first.itemIndent) break;
    // A nested list is an outline, not a list of values: flattened it would read wrong and cite a
    // span of unrelated lines. Neither is an item that leads in a list of its own.
    if (item.itemIndent > first.itemIndent || LEAD_IN.test(item.text)) return null;
    items.push(item);
  }
  if (items.length < 2 || items.some((i) => !WORD_CHAR.test(i.text))) return null;
  if (items.every((i) => i.linkOnly) || items.every((i) => isFactLike(i.text))) return null;
  return items;
}

/**
 * The lead-in sentence and the items of its list as one fact ("Loci runs on: Linux; macOS; Windows"),
 * citing the lines from the lead-in's first word to the last item. Without the list it is the sentence
 * alone, as any other.
 */
function listFact(chunkOrd: number, leadIn: Passage, start: number, text: string, items: Passage[]): ExtractedFci | null {
  const lead = sentenceFact(chunkOrd, leadIn, start, text);
  const joined = listText(text, text, items);
  const firstWord = text.search(WORD_CHAR);
  if (joined === null || firstWord < 0) return lead;
  const last = items[items.length - 1]!;
  return { chunkOrd, text: joined, lineFrom: lineAt(leadIn, start + firstWord), lineTo: lineAt(last, lastWordAt(last.text)) };
}

/**
 * "lead item; item; item", or null when that outgrows a sentence's length or reads as code — judged on
 * the note's own characters (`ownLead` and the items; the "; " between items is ours), a short item's
 * qualifier in parentheses ("Windows (64-bit)") being prose, not code.
 */
function listText(lead: string, ownLead: string, items: Passage[]): string | null {
  const itemTexts = items.map((i) => i.text.replace(/[\s.,;，；。]+$/u, ''));
  const text = `${lead} ${itemTexts.join('; ')}`;
  const own = `${ownLead} ${itemTexts.join(' ')}`;
  return text.length <= MAX_LIST_FACT_CHARS && isFactLike(own.replace(/[()]/g, ' ')) ? text : null;
}

/**
 * True when the chunk is the first of its section, so what it opens with sits directly under its
 * heading. A section's later chunks (a long section, or one after a code block) share its heading path.
 */
function opensItsSection(chunk: ParsedChunk, previous: ParsedChunk | null): boolean {
  if (chunk.headingPath.length === 0) return false;
  if (!previous) return true;
  return previous.headingPath.join('\u0000') !== chunk.headingPath.join('\u0000');
}

/**
 * A list of short items right under a heading, with no sentence to lead it in ("## Requirements",
 * "- Node 20", "- 4 GB of memory"): the heading leads it in, as one fact "Requirements: Node 20; 4 GB of
 * memory", under the same guards as a lead-in's list (shortListAfter, listFact's length and code checks).
 * It cites the heading's line to the last item's, although the heading line lies just above the chunk
 * (the parser keeps a heading as the chunk's path, not its text): a fact's lines must hold every word
 * it states, and "Requirements" is written nowhere else. Citing from the first item would keep the
 * fact inside its chunk but name lines that do not show its first word. With no known heading line
 * there is no fact rather than one citing lines that lack its words.
 */
function headingListFact(chunk: ParsedChunk, passages: Passage[]): ExtractedFci | null {
  const heading = chunk.headingPath[chunk.headingPath.length - 1]?.trim() ?? '';
  if (!WORD_CHAR.test(heading) || chunk.headingLine === null || chunk.headingLine === undefined) return null;
  const items = shortListAfter(passages, -1);
  if (!items) return null;
  // "Requirements" leads in with a colon; a heading with its own end ("What you need?") keeps it.
  const text = listText(/[:：?？!！.。]$/u.test(heading) ? heading : `${heading}:`, heading, items);
  if (text === null) return null;
  const last = items[items.length - 1]!;
  return { chunkOrd: chunk.ord, text, lineFrom: chunk.headingLine, lineTo: lineAt(last, lastWordAt(last.text)) };
}

/**
 * A title or an initial before a name ("Mr.", "St.", "Gen.", "J." in "J. R. R. Tolkien"): ICU breaks a
 * sentence after it when a capital follows (Node's ICU ignores the locale's abbreviation suppressions),
 * which cut a fact in two mid-name. Words that may also end a sentence ("Jr.", "U.S.", "No.") are not here.
 */
const NAME_PREFIX = /(?:^|[\s(“"'])(?:Mr|Mrs|Ms|Mx|Dr|Prof|St|Mt|Ft|Gen|Col|Maj|Lt|Sgt|Capt|Cmdr|Adm|Rev|Gov|Sen|Rep|Fr|Sr|Messrs|\p{Lu})\.$/u;

/**
 * An abbreviation that introduces or qualifies what follows ("e.g.", "i.e.", "vs.") and so never ends a
 * sentence; ICU breaks after it when a capital or code follows, which cut a documentation fact at
 * "Sets the port to listen to, e.g." and dropped "SB_PORT=1234, default is 3000" as code. "etc." and
 * "approx." may end a sentence, so they are not here.
 */
const MID_SENTENCE = /(?:^|[\s(“"'])(?:e\.g|i\.e|vs|cf|viz|incl|esp|resp|w\.r\.t)\.$/iu;

interface Sentence {
  segment: string;
  /** Where it starts in the text. */
  index: number;
}

/**
 * A question or exclamation mark with a word right after it, no space between: a URL's query or a
 * parameter ("adding ?resetClient=1 to any URL", "/?disableSpaceLua=1"), not a sentence's end. ICU breaks
 * there all the same, which cut documentation facts in two at the mark. Only ASCII marks before ASCII
 * word characters: "你好吗？我很好" and "吗?我" are sentence ends.
 */
const GLUED_MARK = /[?!]$/;
const GLUED_NEXT = /^[A-Za-z0-9_$=&%/]/;

/**
 * ICU's sentences of the text, with a break after a title or an initial before a name, or after an
 * abbreviation such as "e.g.", undone, and one at a question or exclamation mark glued to the next word.
 */
export function* sentencesOf(text: string): Generator<Sentence> {
  let pending: Sentence | null = null;
  for (const seg of sentenceSegmenter.segment(text)) {
    const current: Sentence = pending ? { segment: pending.segment + seg.segment, index: pending.index } : { segment: seg.segment, index: seg.index };
    const glued = GLUED_MARK.test(current.segment) && GLUED_NEXT.test(text[current.index + current.segment.length] ?? '');
    const end = current.segment.trimEnd();
    if (glued || NAME_PREFIX.test(end) || MID_SENTENCE.test(end)) {
      pending = current;
      continue;
    }
    pending = null;
    yield current;
  }
  if (pending) yield pending;
}

/** Splits a chunk at blank lines, list items, table rows and headings: sentences never cross those. */
function passagesOf(chunk: ParsedChunk): Passage[] {
  const passages: Passage[] = [];
  let current: Passage | null = null;
  const rawLines = chunk.text.split('\n');
  for (let i = 0; i < rawLines.length; i++) {
    const raw = rawLines[i]!;
    const { text, kind } = cleanLine(raw);
    if (kind === 'blank') {
      current = null;
      continue;
    }
    if (kind === 'start' || kind === 'alone' || current === null) {
      const itemIndent = kind === 'start' ? listIndent(raw) : null;
      current = { text: '', lineStarts: [], itemIndent, linkOnly: itemIndent !== null && LINK_ONLY_ITEM.test(raw) };
      passages.push(current);
    } else {
      current.text += ' ';
    }
    current.lineStarts.push({ offset: current.text.length, line: chunk.lineFrom + i });
    current.text += text;
    if (kind === 'alone') current = null;
  }
  return passages;
}

function lineAt(passage: Passage, offset: number): number {
  let line = passage.lineStarts[0]!.line;
  for (const start of passage.lineStarts) {
    if (start.offset > offset) break;
    line = start.line;
  }
  return line;
}

/**
 * Keeps statements, drops debris: a fact needs a few words' worth of letters (a Han character counts
 * as a word) and must not look like code.
 */
function isFactLike(text: string): boolean {
  const han = text.match(HAN)?.length ?? 0;
  const letters = text.match(LETTER)?.length ?? 0;
  if (han >= 4) return true;
  const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
  if (letters < 12 || words < 3) return false;
  return !looksLikeCode(text);
}

function looksLikeCode(text: string): boolean {
  const codeChars = text.match(CODE_CHARS)?.length ?? 0;
  return codeChars / Math.max(1, text.length) >= 0.05;
}

/** A list item that is nothing but one wikilink or Markdown link. */
const LINK_ONLY_ITEM = /^\s*(?:>\s?)*(?:[-*+]|\d{1,9}[.)])\s+(?:\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)|<[^>\s]+>)\s*$/;
