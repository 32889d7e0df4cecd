// A small model restating a sentence can flip its meaning with one word ("the port is closed" for "the
// port is open") and still pass every word-overlap check. A fact that restates one sentence of its piece
// is compared with that sentence: each negation the one has and the other lacks, and each word swapped
// for its WordNet antonym, flips the meaning; an odd number of flips contradicts the sentence, an even
// one ("not enabled" for "disabled") does not. English only: WordNet and the negations are English.
import stem from 'wink-eng-lite-web-model/dist/porter-stemmer.js';
import { getNlp } from '../fast/nlp.js';
import { antonymsOf } from '../../text/antonyms.js';
import { isStopWord } from '../../text/stopwords.js';

/** Below this share of its content words found in one sentence, a fact is not a restatement of it, and is not judged. */
const MIN_RESTATEMENT = 0.6;

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nothing', 'nobody', 'neither', 'nor', 'cannot', 'without']);

interface Words {
  /** Each word-like token, lowercase, with its lemma (for WordNet) and its stem (for matching). */
  tokens: { word: string; lemma: string; stem: string }[];
  /** Every stem: "disabled" (an adjective, its own lemma) and "disable" meet there. */
  stems: Set<string>;
  negations: number;
}

function wordsOf(text: string): Words {
  const nlp = getNlp();
  const its = nlp.its;
  // A link's target is no part of what the sentence says ("…#hackers-not-only…").
  const all = nlp.readDoc(text.replace(/\]\([^)]*\)/g, ']')).tokens();
  const values = all.out() as string[];
  const types = all.out(its.type) as string[];
  const tokens: Words['tokens'] = [];
  let negations = 0;
  values.forEach((value, i) => {
    if (types[i] !== 'word') return;
    const word = value.toLowerCase();
    const lemma = (all.itemAt(i).out(its.lemma as never) as string).toLowerCase();
    if (NEGATIONS.has(word) || /n['’]t$/.test(word)) negations++;
    tokens.push({ word, lemma, stem: stem(word) });
  });
  return { tokens, stems: new Set(tokens.map((t) => t.stem)), negations };
}

/** The words that carry what a sentence says: neither stop words nor negations. */
function contentOf(words: Words): Words['tokens'] {
  return words.tokens.filter((t) => !isStopWord(t.word) && !NEGATIONS.has(t.word));
}

/**
 * A judge of the facts restating `sentences` (a piece's): for each fact, why it reverses the meaning of
 * the sentence it restates, or null (see the file's comment). The sentences are read once.
 */
export function meaningFlips(sentences: readonly string[]): (fact: string) => { restates: string; flips: string[] } | null {
  // A fact may restate a sentence the segmenter cut in two ("e.g. .md"), or two sentences joined.
  const windows = sentences
    .flatMap((x, i) => [x, ...(i + 1 < sentences.length ? [`${x} ${sentences[i + 1]}`] : [])])
    .map((text) => {
      const words = wordsOf(text);
      return { text, words, content: contentOf(words) };
    });
  const judge = (fact: string) => {
    const f = wordsOf(fact);
    const content = contentOf(f);
    if (content.length === 0) return null;
    let best: { window: (typeof windows)[number]; share: number; shared: number } | null = null;
    for (const window of windows) {
      const { words } = window;
      // A word swapped for its antonym still marks the sentence restated.
      const share = content.filter((t) => words.stems.has(t.stem) || swappedFor(t, words, f)).length / content.length;
      // Ties go to the window sharing more of the fact's words (stop words too), then to the shorter one.
      const shared = f.tokens.filter((t) => words.stems.has(t.stem)).length - words.tokens.length / 1000;
      if (!best || share > best.share || (share === best.share && shared > best.shared)) best = { window, share, shared };
    }
    if (!best || best.share < MIN_RESTATEMENT) return null;
    const s = best.window.words;
    const flips: string[] = [];
    // Negations are compared only when the fact restates most of the sentence: in a long one, a "not"
    // may belong to a clause the fact leaves out.
    const covered = best.window.content.filter((t) => f.stems.has(t.stem)).length / Math.max(1, best.window.content.length);
    if (covered >= MIN_RESTATEMENT && f.negations % 2 !== s.negations % 2) flips.push('negation');
    for (const t of f.tokens) if (!s.stems.has(t.stem) && swappedFor(t, s, f)) flips.push(t.word);
    return flips.length % 2 === 1 ? { restates: best.window.text, flips } : null;
  };
  // A fact of several sentences (a base model restating a paragraph) is judged sentence by sentence.
  return (fact) => {
    for (const { segment } of sentenceSegmenter.segment(fact)) {
      const flip = segment.trim() ? judge(segment.trim()) : null;
      if (flip) return flip;
    }
    return null;
  };
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The fact's word `t` stands where the sentence has one of its antonyms (which the fact lacks). */
function swappedFor(t: Words['tokens'][number], s: Words, f: Words): boolean {
  return [...antonymsOf(t.word), ...antonymsOf(t.lemma)].some((a) => s.stems.has(stem(a)) && !f.stems.has(stem(a)));
}

