import type { RetrievalContext } from '../retrieve/retriever.js';
import type { RetrievedContext } from '../types.js';
import type { Citation } from '../api.js';
import { dot } from '../embed/embedder.js';
import { analyseQuery, type QueryAnalysis } from '../retrieve/query.js';
import { loadEmbeddingsOf } from '../store/embeddings.js';
import { factsOf, hasIndexedDocuments, passagesOfNotes, type FactRow, type NotePassageRow } from '../store/retrieval.js';
import { PATH_SEPARATOR } from '../../contract/shapes/domain.js';
import { termMatcher } from './term-match.js';
import { findBridge, type Bridge } from './bridge.js';
import { leadThenBold, markdownText, pathThenFact, quotedText } from './markdown.js';
import { quotedFact } from './quoted.js';
import { isNavigation } from './navigation.js';
import { introducedCode, leadInOf, leadsInto, lineInPassage, shownUnderLeadIn, type NoteLines, type ShownUnder } from './lead-ins.js';

export const EXTRACTIVE_NOTICE =
  'No language model is installed, so this answer is extractive: the facts in your notes that best match the question, each cited. A model would write a direct answer from them.';

export const NOTHING_TO_SEARCH =
  'Nothing to search for: the question has no words but common ones (like "what", "the", "of"). Ask with the words your notes would use.';

export const EMPTY_INDEX = 'The index is empty: add a notes folder first (`loci index <folder>`, or Library in the app).';

/**
 * The answer with no model: the facts (FCIs, shown by their mind-map path) that best match the
 * question inside the retrieved contexts, as cited bullets. Contexts that are already fact paths or
 * triples are cited as they are. It ranks with what retrieval computed (the analysed question, the
 * contexts' order) and the facts' own vectors; it runs no search of its own.
 *
 * Bridges first: when the question names a note ("the founder of Kestrel Coffee Works") and another
 * retrieved note is one hop from it — it mentions that name ("Mara Lindqvist is the founder … of Kestrel
 * Coffee Works"), or the named note mentions it — the facts of the second note that match the rest of
 * the question ("born") are the answer, and lead (see bridge.ts).
 */
export async function extractiveAnswer(
  ctx: RetrievalContext,
  question: string,
  contexts: RetrievedContext[],
  maxFacts = 5,
  analysed?: QueryAnalysis,
): Promise<{ text: string; citations: Citation[] }> {
  const qa = analysed ?? (await analyseQuery(ctx, question));
  // Only common words ("what is it", "?"): whatever came back matched none of them, and would be cited as if it had.
  if (qa.terms.length === 0 && hasIndexedDocuments(ctx.db)) return { text: NOTHING_TO_SEARCH, citations: [] };
  const q = qa.embedding;
  const terms = qa.terms;
  // Facts come from the whole of each retrieved note, not only the retrieved chunk: on a multi-hop
  // question the second note is found through one passage and answers in another.
  const docRank = new Map<number, number>();
  for (const c of contexts) if (!docRank.has(c.docId)) docRank.set(c.docId, docRank.size);
  const retrievedChunks = new Set(contexts.flatMap((c) => (c.chunkId === undefined ? [] : [c.chunkId])));
  const docOf = new Map(contexts.map((c) => [c.docId, c]));
  // A context may show more than the passage retrieval found (loci shows a passage with the rest of its
  // section: passage-spans.ts); a fact on the lines shown is as retrieved as one in the passage itself.
  const shown = (f: { document_id: number; line_from: number; line_to: number }) =>
    contexts.some((c) => c.kind === 'chunk' && c.docId === f.document_id && c.lineFrom <= f.line_from && f.line_to <= c.lineTo);
  const facts = factsOf(ctx.db, [...docRank.keys()]);
  const factVectors = loadEmbeddingsOf(ctx.db, 'fci', ctx.embedder.id, facts.map((f) => f.id));
  const match = termMatcher(terms, qa.variants);
  const factTerms = facts.map((f) => match.termsIn(f.text));
  const idf = localIdf(terms, factTerms);
  const held = new Set(factTerms.flatMap((s) => [...s]));
  const totalIdf = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
  const notes = [...docOf.values()].map((c) => ({ docId: c.docId, title: c.docTitle }));
  const bridge = findBridge(question, notes, facts, (text) => match.termsIn(text));

  // A note's passages, read once, when one of its facts first needs its lines as written.
  const passages = new Map<number, NotePassageRow[]>();
  const passagesOf = (docId: number) => {
    let list = passages.get(docId);
    if (!list) passages.set(docId, (list = passagesOfNotes(ctx.db, [docId])));
    return list;
  };
  const linesOf =
    (docId: number): NoteLines =>
    (line) =>
      lineInPassage(
        passagesOf(docId).find((p) => p.line_from <= line && line <= p.line_to),
        line,
      );
  // A table of contents matches every question about what it lists: its facts rank after the notes that answer.
  const navigation = new Map<number, boolean>();
  const navigationPenalty = (docId: number) => {
    let nav = navigation.get(docId);
    if (nav === undefined) navigation.set(docId, (nav = isNavigation(passagesOf(docId))));
    return nav ? NAVIGATION_PENALTY : 0;
  };
  type Candidate = Omit<Citation, 'n'> & { score: number; key: string; terms: Set<string> };
  const candidates: Candidate[] = [];
  facts.forEach((f, i) => {
    const v = factVectors.get(f.id);
    const has = factTerms[i]!;
    // The retriever's order carries evidence the fact's own words lack (BM25, graph walks): keep it.
    const prior = 1 / (docRank.get(f.document_id)! + 2) + (retrievedChunks.has(f.chunk_id) || shown(f) ? 0.1 : 0);
    const lexical = [...has].reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) / totalIdf;
    const ctxOf = docOf.get(f.document_id)!;
    candidates.push({
      key: `fci:${f.id}`,
      docId: f.document_id,
      score: (v ? dot(q, v) : 0) + lexical + prior + bridgeBonus(bridge, f.document_id, has, idf, held) - navigationPenalty(f.document_id),
      terms: has,
      docPath: ctxOf.docPath,
      docTitle: ctxOf.docTitle,
      lineFrom: f.line_from,
      lineTo: f.line_to,
      factPath: f.path_text && withoutRepeats(f.path_text),
      text: f.text,
    });
  });
  // A fact path returned with its passage (pgr) is cited as its fact, with the fact's lines, not as the
  // whole passage.
  const factOfPath = new Map(facts.flatMap((f) => (f.path_text ? [[`${f.document_id}:${f.path_text}`, f] as const] : [])));
  contexts.forEach((c, i) => {
    if (c.kind === 'chunk') return;
    const fact = c.chunkId !== undefined ? factOfPath.get(`${c.docId}:${c.factPath}`) : undefined;
    const text = fact?.text || c.text;
    const lineFrom = fact ? fact.line_from : c.lineFrom;
    const lineTo = fact ? fact.line_to : c.lineTo;
    candidates.push({
      key: `${c.kind}:${c.docId}:${lineFrom}:${text}`,
      docId: c.docId,
      score: 1 / (i + 1) + 0.5 - navigationPenalty(c.docId),
      docPath: c.docPath,
      docTitle: c.docTitle,
      lineFrom,
      lineTo,
      factPath: c.factPath && withoutRepeats(c.factPath),
      text,
      terms: match.termsIn(text),
    });
  });

  // Greedy: each pick is the best fact plus a bonus for question terms no chosen fact covers yet, so a
  // multi-hop answer gets the second hop's fact instead of a fourth restatement of the first.
  const chosen: Candidate[] = [];
  const covered = new Set<string>();
  const perDoc = new Map<number | string, number>();
  const pool = candidates.filter((c) => c.docPath);
  // A how-to is answered by a step: a fact that shows a command, a list or a table under it leads the
  // sentences that only talk about the topic.
  if (HOW_TO.test(question)) {
    const rows = new Map(facts.map((f) => [`fci:${f.id}`, f]));
    for (const c of [...pool].sort((a, b) => b.score - a.score).slice(0, SHOWS_UNDER_CHECKED)) {
      const row = rows.get(c.key);
      if (!row) continue;
      const lines = linesOf(row.document_id);
      const passages = passagesOf(row.document_id);
      if (shownUnderLeadIn(row, facts, lines) || introducedCode(c, passages, lines(row.line_to)) || leadsInto(row, facts, passages, lines)) c.score += SHOWS_UNDER_BONUS;
    }
  }
  const ctxCount = new Map<number, number>();
  for (const c of contexts) ctxCount.set(c.docId, (ctxCount.get(c.docId) ?? 0) + 1);
  // Two facts a note, so a multi-hop answer reaches the second note, or as many as the passages the
  // retriever returned of it: a guide whose page it returns three times answers from that page.
  const capOf = (d: number | undefined) => Math.max(MIN_PER_NOTE, d === undefined ? 0 : (ctxCount.get(d) ?? 0));
  // A lead-in's list or table shows under it (lead-ins.ts): its items are not picked again, and one
  // picked before it moves under it.
  const rowOf = new Map(facts.map((f, i) => [`fci:${f.id}`, { row: f, terms: factTerms[i]! }]));
  const words = new Map<string, string>();
  const wordsOf = (text: string) => {
    let w = words.get(text);
    if (w === undefined) words.set(text, (w = wordsOnly(text)));
    return w;
  };
  const underOf = new Map<string, ShownUnder>();
  const followOf = new Map<string, FactRow[]>();
  const underLeadIn = new Set<string>();
  /** Facts shown under a lead-in are not picked again; one picked before it moves under it. */
  const takeUnder = (key: string) => {
    underLeadIn.add(key);
    const at = chosen.findIndex((x) => x.key === key);
    if (at >= 0) {
      const [moved] = chosen.splice(at, 1);
      perDoc.set(moved!.docId ?? moved!.docPath, perDoc.get(moved!.docId ?? moved!.docPath)! - 1);
    }
    for (const t of rowOf.get(key)?.terms ?? []) covered.add(t);
  };
  while (chosen.length < maxFacts) {
    let best: Candidate | null = null;
    let bestScore = -Infinity;
    for (const c of pool) {
      if (underLeadIn.has(c.key)) continue;
      if ((perDoc.get(c.docId ?? c.docPath) ?? 0) >= capOf(c.docId) || chosen.some((x) => x.key === c.key || x.text === c.text || saysNoMore(wordsOf(c.text), wordsOf(x.text)))) continue;
      const fresh = [...c.terms].reduce((sum, t) => sum + (covered.has(t) ? 0 : (idf.get(t) ?? 0)), 0);
      const score = c.score + (COVERAGE_BONUS * fresh) / totalIdf;
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    if (!best) break;
    // A list item answers under the sentence that leads into its list: that sentence is cited, the list under it.
    const item = rowOf.get(best.key)?.row;
    const lead = item ? leadInOf(item, facts, linesOf(item.document_id)) : null;
    const leadCandidate = lead ? pool.find((c) => c.key === `fci:${lead.id}`) : undefined;
    if (leadCandidate && !chosen.includes(leadCandidate) && !underLeadIn.has(leadCandidate.key)) best = leadCandidate;
    chosen.push(best);
    for (const t of best.terms) covered.add(t);
    perDoc.set(best.docId ?? best.docPath, (perDoc.get(best.docId ?? best.docPath) ?? 0) + 1);
    const row = rowOf.get(best.key)?.row;
    const under = row ? shownUnderLeadIn(row, facts, linesOf(row.document_id)) : null;
    if (under) {
      underOf.set(best.key, under);
      for (const f of under.facts) takeUnder(`fci:${f.id}`);
    } else if (row && !introducedCode(best, passagesOf(row.document_id), linesOf(row.document_id)(row.line_to))) {
      // A sentence whose paragraph goes on to a lead-in brings the rest of the paragraph and what it leads into.
      const span = leadsInto(row, facts, passagesOf(row.document_id), linesOf(row.document_id));
      if (span) {
        followOf.set(best.key, span.following);
        underOf.set(best.key, span.under);
        for (const f of [...span.following, ...span.under.facts]) takeUnder(`fci:${f.id}`);
      }
    }
  }
  if (chosen.length === 0) {
    const empty = !hasIndexedDocuments(ctx.db);
    return { text: empty ? EMPTY_INDEX : 'Nothing in the indexed notes matches this question.', citations: [] };
  }
  // A fact that ends in a colon shows the code block, the list or the table it introduces, and cites its lines (lead-ins.ts).
  const shownUnder = chosen.map((c) => {
    const under = underOf.get(c.key);
    if (under || c.docId === undefined) return under;
    const row = rowOf.get(c.key)?.row;
    return introducedCode(c, passagesOf(c.docId), row ? linesOf(row.document_id)(row.line_to) : null);
  });
  const citations: Citation[] = chosen.map(({ score: _s, key: _k, terms: _t, ...c }, i) => ({ n: i + 1, ...c, lineTo: shownUnder[i]?.lineTo ?? c.lineTo }));
  // A fact quoted as its note writes it: its code spans and links (quoted.ts).
  const quote = (docId: number | undefined, text: string, from: number, to: number) => {
    if (docId === undefined) return null;
    const lines = Array.from({ length: to - from + 1 }, (_, j) => linesOf(docId)(from + j)).filter((l) => l !== null);
    return lines.length ? quotedFact(text, lines.join('\n')) : null;
  };
  const bullets = citations.map((c, i) => {
    const quoted = quote(c.docId, c.text, chosen[i]!.lineFrom, chosen[i]!.lineTo);
    const fact = c.factPath ? pathThenFact(c.factPath, c.text, quoted) : quoted ? leadThenBold('', c.text, quoted) : markdownText(c.text);
    const rest = (followOf.get(chosen[i]!.key) ?? []).map((f) => {
      const q = quote(f.document_id, f.text, f.line_from, f.line_to);
      return q ? quotedText(q) : markdownText(f.text);
    });
    const line = [fact, ...rest].join(' ');
    const bullet = `- ${line} [${c.n}]`;
    const under = shownUnder[i]?.markdown;
    return under ? `${bullet}\n${under.replace(/^/gm, '  ')}` : bullet;
  });
  return { text: `${EXTRACTIVE_NOTICE}\n\n${bullets.join('\n')}`, citations };
}


/**
 * A fact's mind-map path as shown: a paragraph node is labelled by the paragraph's first sentence
 * (shortened with "…"), so when the fact is that sentence the path said it twice
 * ("Background › Mara … born in Tromsø, Norway, in 1986. › Mara … born in Tromsø, Norway, in 1986.").
 */
export function withoutRepeats(path: string): string {
  const segments = path.split(PATH_SEPARATOR);
  const kept = segments.filter((s, i) => {
    const next = segments[i + 1];
    if (next === undefined) return true;
    // "… panel shows both links › … panel shows both links:": the sentence again, closed by a colon.
    const bare = (x: string) => x.replace(/[:：]\s*$/, '');
    if (bare(next) === bare(s) || (s.endsWith('…') && next.startsWith(s.slice(0, -1).trimEnd()))) return false;
    // A list's node is labelled by its first item, which the list's fact spells out with the rest
    // ("Command: Ctrl+Shift+P › Creating Daily Notes: Command: Ctrl+Shift+P; Shortcut: Alt+D").
    return !(i === segments.length - 2 && s.length >= MIN_REPEAT_CHARS && next.includes(s));
  });
  return kept.join(PATH_SEPARATOR);
}

/** A label shorter than this (a heading such as "error") may be a word the fact happens to use. */
const MIN_REPEAT_CHARS = 16;

/** What a navigation note's facts lose: more than a fact can gain from coverage and a bridge, so they come last. */
const NAVIGATION_PENALTY = 3;

/** A how-to question ("How do I …", "How can I …", "how to …"). */
const HOW_TO = /^\s*how\s+(?:do|can|should|would|to)\b|\bhow\s+to\b/i;
/** The best candidates checked for what they show under them (each check reads the note's lines). */
const SHOWS_UNDER_CHECKED = 40;
/** What showing a step under it is worth to a how-to's fact, next to similarity and lexical match (0–1 each). */
const SHOWS_UNDER_BONUS = 0.3;

/** Facts a note may give the answer whatever the retriever returned of it. */
const MIN_PER_NOTE = 2;

/** What covering all of the question's (IDF-weighted) terms is worth, next to similarity (0–1) and lexical match (0–1). */
const COVERAGE_BONUS = 1;

/**
 * What answering the rest of a bridged question is worth: more than a first-hop fact can gain from
 * lexical match (≤ 1) and term coverage (≤ COVERAGE_BONUS) together, so the answer leads.
 */
const BRIDGE_BONUS = 1 + COVERAGE_BONUS + 0.5;

/**
 * Whether a fact says no more than one already chosen: its words (`wordsOnly`), as written, stand within
 * the other's ("罚款800元。【" after "罚款800元。"; a list item "Full Text Search" after "Full-text search
 * is not built in …").
 */
function saysNoMore(factWords: string, chosenWords: string): boolean {
  return factWords.length > 0 && chosenWords.includes(factWords);
}

/** A text's letters and digits, lowercase, single-spaced. */
const wordsOnly = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** IDF of each term over the candidate facts: within the retrieved notes, rare words ("born") outweigh the topic's. */
function localIdf(terms: string[], factTerms: Set<string>[]): Map<string, number> {
  const n = factTerms.length;
  return new Map(terms.map((t) => [t, Math.log(1 + n / (1 + factTerms.filter((s) => s.has(t)).length))]));
}

/**
 * The share of what is left to ask of a bridged note that the fact holds. A term no retrieved fact holds
 * ("a woman born in …": no note says "woman") cannot tell facts apart, so it is not part of the share.
 */
function bridgeBonus(b: Bridge, docId: number, has: Set<string>, idf: Map<string, number>, held: Set<string>): number {
  const rest = b.rest.get(docId);
  if (!rest) return 0;
  let got = 0;
  let all = 0;
  for (const t of rest) {
    if (!held.has(t)) continue;
    const w = idf.get(t) ?? 0;
    all += w;
    if (has.has(t)) got += w;
  }
  return all > 0 ? (BRIDGE_BONUS * got) / all : 0;
}
