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
}

/** Fast-mode FCIs: the sentences of a note's prose chunks, cleaned of Markdown, with their source lines. */
export function extractSentenceFcis(chunks: ParsedChunk[]): ExtractedFci[] {
  return splitSentences(chunks).fcis;
}

/** FCIs together with the paragraphs and list items they come from. */
export function splitSentences(chunks: ParsedChunk[]): SentenceSplit {
  const fcis: ExtractedFci[] = [];
  const passages: SentencePassage[] = [];
  const passageOf: number[] = [];
  for (const chunk of chunks) {
    if (chunk.isCode) continue;
    for (const passage of passagesOf(chunk)) {
      const passageIndex = passages.length;
      passages.push({ chunkOrd: chunk.ord, text: passage.text, itemIndent: passage.itemIndent });
      for (const seg of sentencesOf(passage.text)) {
        const text = seg.segment.trim();
        if (!isFactLike(text)) continue;
        const start = seg.index + (seg.segment.length - seg.segment.trimStart().length);
        // Cite the lines of the words, not of stray punctuation that ICU glued on at either end.
        const firstWord = text.search(WORD_CHAR);
        let lastWord = text.length - 1;
        while (lastWord > firstWord && !WORD_CHAR.test(text[lastWord]!)) lastWord--;
        fcis.push({
          chunkOrd: chunk.ord,
          text,
          lineFrom: lineAt(passage, start + firstWord),
          lineTo: lineAt(passage, start + lastWord),
        });
        passageOf.push(passageIndex);
      }
    }
  }
  return { fcis, passages, passageOf };
}

/**
 * A title or an initial before a name ("Mr.", "St.", "Gen.", "J." in "J. R. R. Tolkien"): ICU breaks a
 * sentence after it when a capital follows (Node's ICU ignores the locale's abbreviation suppressions),
 * which cut a fact in two mid-name. Words that may also end a sentence ("Jr.", "U.S.", "No.") are not here.
 */
const NAME_PREFIX = /(?:^|[\s(“"'])(?:Mr|Mrs|Ms|Mx|Dr|Prof|St|Mt|Ft|Gen|Col|Maj|Lt|Sgt|Capt|Cmdr|Adm|Rev|Gov|Sen|Rep|Fr|Sr|Messrs|\p{Lu})\.$/u;

interface Sentence {
  segment: string;
  /** Where it starts in the text. */
  index: number;
}

/** ICU's sentences of the text, with a break after a title or an initial before a name undone. */
export function* sentencesOf(text: string): Generator<Sentence> {
  let pending: Sentence | null = null;
  for (const seg of sentenceSegmenter.segment(text)) {
    const current: Sentence = pending ? { segment: pending.segment + seg.segment, index: pending.index } : { segment: seg.segment, index: seg.index };
    if (NAME_PREFIX.test(current.segment.trimEnd())) {
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
    if (kind === 'start' || current === null) {
      current = { text: '', lineStarts: [], itemIndent: kind === 'start' ? listIndent(raw) : null };
      passages.push(current);
    } else {
      current.text += ' ';
    }
    current.lineStarts.push({ offset: current.text.length, line: chunk.lineFrom + i });
    current.text += text;
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
  const codeChars = text.match(CODE_CHARS)?.length ?? 0;
  return codeChars / text.length < 0.05;
}
