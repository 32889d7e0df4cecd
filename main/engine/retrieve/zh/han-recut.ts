// Words jieba split in the question but keeps whole in the notes. A question is cut in precise mode with
// no context beyond itself, and where a character could start or end either of two words the cut can
// differ from the text's: 在他信落地后 is cut 在 / 他 / 信 / 落地 / 后, so the name 他信 — one word
// wherever the notes are indexed — becomes a stop word and a single character, and BM25 over words
// never sees it. The bigram re-reading (han-bigrams.ts) recovers the characters, but only among the
// passages BM25 already found; here two neighbouring question words, one of them a single character,
// are joined back into one search term when the index holds that word. Only Han words are joined, so
// a question with no Han text is returned unchanged.
import type { RetrievalContext } from '../retriever.js';
import { ftsMatchOf, searchedWords, type QueryAnalysis } from '../query.js';
import { chunkDocumentFrequencies } from '../../store/retrieval.js';

const HAN_WORD = /^\p{Script=Han}+$/u;
/** Longest joined word, in characters (names and common words are two to four). */
const MAX_JOINED = 4;

/** Neighbouring Han words of the question, one a single character, joined (not already a term). */
export function joinedCandidates(words: string[], terms: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i]!;
    const b = words[i + 1]!;
    if (!HAN_WORD.test(a) || !HAN_WORD.test(b)) continue;
    if ((a.length > 1 && b.length > 1) || a.length + b.length > MAX_JOINED) continue;
    const joined = a + b;
    if (!terms.includes(joined) && !out.includes(joined)) out.push(joined);
  }
  return out;
}

/**
 * The analysis with the joined words the index holds added to its search terms (and its FTS match), on
 * a fresh memo so rankings computed for the original terms are not reused; the analysis itself when no
 * joined word is in the index. Kept on the original analysis's memo: one lookup per question.
 */
export function withJoinedHanWords(ctx: RetrievalContext, qa: QueryAnalysis): QueryAnalysis {
  const known = qa.memo.get('han-joined') as QueryAnalysis | undefined;
  if (known) return known;
  const candidates = joinedCandidates(qa.words, qa.terms);
  let out = qa;
  if (candidates.length) {
    const df = chunkDocumentFrequencies(ctx.db, candidates);
    const found = candidates.filter((_, i) => df[i]! > 0);
    if (found.length) {
      const terms = [...qa.terms, ...found];
      out = { ...qa, terms, ftsMatch: ftsMatchOf(searchedWords(terms, qa.variants)), memo: new Map() };
    }
  }
  qa.memo.set('han-joined', out);
  return out;
}
