// `loci`, the default method: lexical (BM25 over chunks), title evidence and personalized PageRank over
// the entity–chunk–note graph (ppr.ts, seeded by BM25 + dense) fused per document, then the second hop
// through bridges — a top document that mentions another document's title (or links to it) pulls that
// document up (HippoRAG's observation that the bridge entity is the strongest path to the second hop).
// The combination was chosen by measurement on every dev set at once (HotpotQA train-100 and dev,
// MuSiQue, 2Wiki, Chinese news with id titles), never below BM25 on any.
import type { RetrievedContext } from '../types.js';
import type { Scored } from '../embed/vector-matrix.js';
import type { RetrievalContext, RetrievalResult, Retriever } from './retriever.js';
import { chunkContexts } from './contexts.js';
import { analyseQuery, bm25Ranking, searchedWords } from './query.js';
import { bm25Idf } from './bm25.js';
import { nearTopPassages, notePassages } from './note-passages.js';
import { choosePassages, shownByChosen } from './passage-choice.js';
import { notesInSpans } from './passage-spans.js';
import { chunkDocuments, denseAgreementWeight, firstStageNotes, notesOf } from './rank-fusion.js';
import { withBigrams } from './han-bigrams.js';
import { titleNameShare } from './title-names.js';
import { embedderQuality, type EmbedderQuality } from './embedder-quality.js';
import { withSameStory } from './same-story.js';
import { withJoinedHanWords } from './han-recut.js';
import { withProximity } from './han-proximity.js';
import { entityGraph, pprRank } from './ppr.js';
import { indexedTitles } from '../store/retrieval.js';
import { bestChunks } from './hig/retriever.js';
import { segmentWords } from '../text/segment.js';
import { isStopWord } from '../text/stopwords.js';
import { matchWord, referencingShare, specificEnough, titleSpecificity } from '../graph/walk/title-mentions.js';

import { DEFAULT_LOCI_PARAMS, namesWeightOf, walkWeightOf, type LociParams } from './loci-params.js';

/** Below this weight the walk is not run at all (it could not move a rank, and costs a few ms). */
const MIN_WALK_WEIGHT = 0.01;

export interface LociDocument {
  docId: number;
  title: string;
  score: number;
  ranks: { bm25?: number; dense?: number; title?: number; ppr?: number };
  titleInQuestion: boolean;
  /** The documents whose text mentions this one's title (when it was reached as a bridge). */
  bridgedFrom: { docId: number; title: string; mention: string }[];
}

export interface LociExplanation {
  method: 'loci';
  params: LociParams;
  /** The weight each ranking was given for this question (after agreement and, for the walk, the corpus's references). */
  weights: { bm25: number; bigramShare: number; dense: number; title: number; ppr: number };
  /** Share of the corpus's notes that name or link another note (the walk's weight follows it). */
  referencingShare: number;
  /** Share of title mentions written as names (title-names.ts; null: no case to tell) and the anchor bridge weight it gave. */
  titleNameShare: number | null;
  anchorBridge: number;
  /** How far the embedder is trusted beside BM25 on this corpus (embedder-quality.ts); null when not estimated. */
  embedderTrust: EmbedderQuality | null;
  /** Chinese questions: words the question's cut split that were searched whole (han-recut.ts). */
  joinedWords: string[];
  documents: LociDocument[];
}

interface TitleIndex {
  titleOf: Map<number, string>;
  /** Title word → documents whose title has it. */
  postings: Map<string, number[]>;
  titleWords: Map<number, number>;
  docs: number;
  avgTitleWords: number;
}

function titleIndex(ctx: RetrievalContext): TitleIndex {
  return ctx.cache.derived('loci:titles', () => {
    const rows = indexedTitles(ctx.db);
    const postings = new Map<string, number[]>();
    const titleOf = new Map<number, string>();
    const titleWords = new Map<number, number>();
    let total = 0;
    const add = <K>(m: Map<K, number[]>, key: K, id: number) => {
      const list = m.get(key);
      if (list) list.push(id);
      else m.set(key, [id]);
    };
    for (const r of rows) {
      titleOf.set(r.id, r.title);
      const words = [...new Set(segmentWords(r.title).filter((w) => !isStopWord(w)))];
      titleWords.set(r.id, words.length);
      total += words.length;
      for (const w of words) add(postings, w, r.id);
    }
    return { titleOf, postings, titleWords, docs: rows.length, avgTitleWords: rows.length ? total / rows.length : 1 };
  });
}

/** BM25 of the question's words against document titles alone (a short field: a match there says much). */
function titleRanking(t: TitleIndex, terms: string[]): Scored[] {
  const k1 = 1.2;
  const b = 0.75;
  const scores = new Map<number, number>();
  for (const w of terms) {
    const docs = t.postings.get(w);
    if (!docs) continue;
    const idf = bm25Idf(t.docs, docs.length);
    for (const d of docs) {
      const len = t.titleWords.get(d) ?? 1;
      const tf = (1 * (k1 + 1)) / (1 + k1 * (1 - b + (b * len) / t.avgTitleWords));
      scores.set(d, (scores.get(d) ?? 0) + idf * tf);
    }
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b2) => b2.score - a.score);
}

/**
 * The titles a question names: word n-grams that are a title, less those inside a longer one it names
 * ("King Arthur" in "King Arthur Was a Gentleman" names the film, not the king).
 */
export function namedTitles(words: string[], maxWords: number, isTitle: (gram: string) => boolean): string[] {
  const found: { start: number; end: number; gram: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    let gram = '';
    for (let n = 0; n < maxWords && i + n < words.length; n++) {
      gram = n === 0 ? words[i]! : `${gram} ${words[i + n]!}`;
      if (isTitle(gram)) found.push({ start: i, end: i + n + 1, gram });
    }
  }
  const inside = (a: (typeof found)[number], b: (typeof found)[number]) => b !== a && b.start <= a.start && a.end <= b.end && b.end - b.start > a.end - a.start;
  return [...new Set(found.filter((a) => !found.some((b) => inside(a, b))).map((a) => a.gram))];
}

export function createLociRetriever(overrides: Partial<LociParams> = {}): Retriever {
  const p: LociParams = {
    ...DEFAULT_LOCI_PARAMS,
    ...overrides,
    ppr: { ...DEFAULT_LOCI_PARAMS.ppr, ...overrides.ppr },
    proximity: { ...DEFAULT_LOCI_PARAMS.proximity, ...overrides.proximity },
    passages: { ...DEFAULT_LOCI_PARAMS.passages, ...overrides.passages },
  };
  return async (ctx: RetrievalContext, question: string, k: number): Promise<RetrievalResult> => {
    // Chinese questions: words the question's cut split and the notes keep whole are searched whole (han-recut.ts).
    const analysed = await analyseQuery(ctx, question);
    const qa = p.joinHanWords ? withJoinedHanWords(ctx, analysed) : analysed;
    const titles = titleIndex(ctx);
    // Built once per index generation: which notes mention which titles, and how specific each title is.
    const mentions = entityGraph(ctx).titleMentions;
    const referencing = ctx.cache.derived('loci:referencing-share', () => referencingShare(mentions));
    const nameShare = ctx.cache.derived('loci:title-name-share', () => titleNameShare(ctx.db, mentions));
    const wAnchor = p.wBridge + (p.wAnchorBridge - p.wBridge) * namesWeightOf(nameShare, p);
    const docs = new Map<number, LociDocument>();
    const entry = (docId: number) => {
      let d = docs.get(docId);
      if (!d) {
        d = { docId, title: titles.titleOf.get(docId) ?? '', score: 0, ranks: {}, titleInQuestion: false, bridgedFrom: [] };
        docs.set(docId, d);
      }
      return d;
    };
    const rrf = (rank: number) => 1 / (p.rrfK + rank + 1);

    const first = firstStageNotes(ctx, qa, p.depth);
    const trust = p.adaptive && p.wDense ? await embedderQuality(ctx) : null;
    const wDense = trust ? p.wDense * trust.weight * first.wDense : p.wDense;
    const dense = wDense ? first.dense : [];
    const docOf = chunkDocuments(ctx);
    // BM25's passages in passage-choice order (passage-choice.ts): which passage stands for a note, and
    // so where the note ranks by BM25 (BM25's own order where no note has two passages).
    const bm25 = bm25Ranking(ctx, qa, p.depth);
    // Which notes rank reads code blocks at a lower weight than which passage shows a note does (passage-choice.ts).
    const { shown: passages, noteOrder } = p.passageChoice ? choosePassages(ctx, qa, bm25, docOf, p.passageChoice) : { shown: bm25, noteOrder: bm25 };
    // Where passage choice reordered them, BM25's own note order keeps a share of BM25's weight.
    const ownOrder = p.passageChoice && passages !== bm25 ? notesOf(docOf, bm25) : [];
    const ownShare = ownOrder.length ? p.passageChoice!.bm25OrderShare : 0;
    let lexical = p.wBm25 ? notesOf(docOf, noteOrder) : [];
    // Chinese questions: BM25's passages re-read by character bigrams (han-bigrams.ts), raised where the
    // question's words stand close (han-proximity.ts), then lifted by their likeness to the first
    // (same-story.ts), before they become notes.
    if (p.wBm25 && (p.bigramShare > 0 || p.sameStory > 0)) {
      const reread = p.bigramShare > 0 ? withBigrams(ctx, qa, noteOrder, p.bigramShare) : noteOrder;
      lexical = notesOf(docOf, withSameStory(ctx, qa, withProximity(ctx, qa, reread, p.proximity), p.sameStory));
    }
    if (noteOrder !== passages) lexical = shownByChosen(lexical, notesOf(docOf, passages));
    const byTitle = p.wTitle ? titleRanking(titles, searchedWords(qa.terms, qa.variants)).slice(0, p.depth) : [];
    const walkWeight = p.wPpr * walkWeightOf(referencing, p);
    const walk = walkWeight >= MIN_WALK_WEIGHT ? (await pprRank(ctx, qa, p.ppr)).documents.slice(0, p.depth) : [];

    // Each ranking beside BM25 counts by how far its top agrees with BM25's on this question.
    const lexicalIds = lexical.map((d) => d.docId);
    const agree = (ids: number[]) => (p.adaptive ? denseAgreementWeight(lexicalIds, ids) : 1);
    const weights = {
      bm25: p.wBm25,
      bigramShare: p.bigramShare,
      dense: wDense,
      title: p.wTitle * agree(byTitle.map((s) => s.id)),
      ppr: walk.length ? walkWeight * agree(walk.map((w) => w.docId)) : 0,
    };

    // The chunk a document is shown by: its best BM25 chunk, else its best dense chunk, else the walk's.
    const shownChunk = new Map<number, number>();
    lexical.forEach(({ docId, chunkId }, r) => {
      const d = entry(docId);
      d.ranks.bm25 = r + 1;
      d.score += weights.bm25 * (1 - ownShare) * rrf(r);
      shownChunk.set(docId, chunkId);
    });
    ownOrder.forEach(({ docId }, r) => (entry(docId).score += weights.bm25 * ownShare * rrf(r)));
    dense.forEach(({ docId, chunkId }, r) => {
      const d = entry(docId);
      d.ranks.dense = r + 1;
      d.score += weights.dense * rrf(r);
      if (!shownChunk.has(docId)) shownChunk.set(docId, chunkId);
    });
    byTitle.forEach((s, r) => {
      const d = entry(s.id);
      d.ranks.title = r + 1;
      d.score += weights.title * rrf(r);
    });
    walk.forEach((w, r) => {
      const d = entry(w.docId);
      d.ranks.ppr = r + 1;
      d.score += weights.ppr * rrf(r);
      if (!shownChunk.has(w.docId)) shownChunk.set(w.docId, w.chunkId);
    });
    if (p.wTitleExact) {
      for (const gram of namedTitles(qa.words.map(matchWord), p.maxTitleWords, (g) => mentions.byTitle.has(g) && specificEnough(g))) {
        for (const id of mentions.byTitle.get(gram)!) {
          const d = entry(id);
          if (d.titleInQuestion) continue;
          d.titleInQuestion = true;
          d.score += p.wTitleExact * titleSpecificity(mentions, d.title) ** p.specificityPower * rrf(0);
        }
      }
    }

    // Second hop: the best first-hop documents lend part of their score to the documents they mention.
    if (p.wBridge && p.bridgeParents > 0) {
      const top = [...docs.values()].sort((a, b) => b.score - a.score).slice(0, p.bridgeParents);
      const parents = [...new Set([...top, ...[...docs.values()].filter((d) => d.titleInQuestion && wAnchor > 0)])];
      const bonus = new Map<number, number>();
      for (const parent of parents) {
        const w = parent.titleInQuestion ? wAnchor : p.wBridge;
        const mentioned = mentions.byDoc.get(parent.docId) ?? [];
        const split = mentioned.length ** p.bridgeSplitPower;
        for (const { docId: target, key } of mentioned) {
          const d = entry(target);
          d.bridgedFrom.push({ docId: parent.docId, title: parent.title, mention: key });
          const b = (w * titleSpecificity(mentions, d.title) ** p.specificityPower * parent.score) / split;
          bonus.set(target, Math.max(bonus.get(target) ?? 0, b));
        }
      }
      for (const [target, b] of bonus) docs.get(target)!.score += b;
    }

    const ranked = [...docs.values()].sort((a, b) => b.score - a.score || a.docId - b.docId).slice(0, k);
    const unshown = ranked.filter((d) => !shownChunk.has(d.docId)).map((d) => d.docId);
    const chunkOf = new Map([...bestChunks(ctx, qa.embedding, unshown), ...shownChunk]);
    const shown = ranked.flatMap((d) => {
      const chunkId = chunkOf.get(d.docId);
      return chunkId === undefined ? [] : [{ docId: d.docId, score: d.score, chunkId }];
    });
    const nearTop = nearTopPassages(passages, bm25, p.passages);
    // Passages are shown in their sections' spans only where passage choice is at work (notes of several
    // passages; elsewhere a span is its passage).
    const contexts: RetrievedContext[] = passages === bm25 ? chunkContexts(ctx.db, notePassages(shown, nearTop, docOf, k)) : notesInSpans(ctx.db, shown, nearTop, docOf, k);
    const explanation: LociExplanation = { method: 'loci', params: p, weights, referencingShare: referencing, titleNameShare: nameShare, anchorBridge: wAnchor, embedderTrust: trust, joinedWords: qa.terms.filter((t) => !analysed.terms.includes(t)), documents: ranked };
    return { contexts, explanation, query: qa };
  };
}

export const lociRetriever: Retriever = createLociRetriever();

/** `--explain` for loci: each document's ranks in the three first-stage rankings, title evidence and bridges. */
export function formatLociExplanation(x: LociExplanation): string {
  const w = x.weights;
  const out = [
    `loci (ranks: bm25 / dense / title / ppr, weighted ${w.bm25.toFixed(2)} / ${w.dense.toFixed(2)} / ${w.title.toFixed(2)} / ${w.ppr.toFixed(2)}; ` +
      `BM25 re-read by character bigrams at ${w.bigramShare.toFixed(2)}, by the question words' proximity at ${x.params.proximity.minDistance.toFixed(2)} / ${x.params.proximity.window.toFixed(2)} ` +
      `and lifted by likeness to its first passage at ${x.params.sameStory.toFixed(2)} for Chinese questions; ` +
      `${(100 * x.referencingShare).toFixed(0)}% of notes name or link another; ` +
      `${x.titleNameShare === null ? 'no case to tell whether titles are names' : `${(100 * x.titleNameShare).toFixed(0)}% of title mentions written as names`}, so a note the question names lends ${x.anchorBridge.toFixed(2)} of its score to the notes it names; ` +
      `TQ = title in the question)`,
  ];
  const t = x.embedderTrust;
  if (t) {
    const coverage = t.coverage === null ? 'not measured (a bag of words)' : t.coverage.toFixed(2);
    out.push(`embedder trusted at ${t.weight.toFixed(2)} on this corpus (word-order sensitivity ${t.orderSensitivity.toFixed(2)}, coverage ${coverage}, ${t.probes} probes)`);
  }
  if (x.joinedWords.length) out.push(`searched whole, though the question's cut split them: ${x.joinedWords.join(', ')}`);
  for (const d of x.documents) {
    const r = (n?: number) => (n === undefined ? '–' : String(n));
    const bridges = d.bridgedFrom.map((b) => `“${b.title}” mentions “${b.mention}”`).join('; ');
    out.push(`  ${d.score.toFixed(4)}  ${d.title}  [${r(d.ranks.bm25)} / ${r(d.ranks.dense)} / ${r(d.ranks.title)} / ${r(d.ranks.ppr)}${d.titleInQuestion ? ' / TQ' : ''}]${bridges ? `  bridge: ${bridges}` : ''}`);
  }
  return out.join('\n');
}
