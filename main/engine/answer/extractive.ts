import type { RetrievalContext } from '../retrieve/retriever.js';
import type { RetrievedContext } from '../types.js';
import type { Citation } from '../api.js';
import { dot } from '../embed/embedder.js';
import { queryTerms } from '../text/segment.js';
import { ftsQuery } from '../retrieve/bm25.js';

export const EXTRACTIVE_NOTICE =
  'No language model is installed, so this answer is extractive: the facts in your notes that best match the question, each cited. A model would write a direct answer from them.';

export const EMPTY_INDEX = 'The index is empty: add a notes folder first (`loci index <folder>`, or Library in the app).';

interface FactRow {
  id: number;
  document_id: number;
  chunk_id: number;
  text: string;
  line_from: number;
  line_to: number;
  path_text: string | null;
}

/**
 * The answer with no model: the facts (FCIs, shown by their mind-map path) that best match the
 * question inside the retrieved contexts, as cited bullets. Contexts that are already fact paths or
 * triples are cited as they are.
 */
export async function extractiveAnswer(
  ctx: RetrievalContext,
  question: string,
  contexts: RetrievedContext[],
  maxFacts = 5,
): Promise<{ text: string; citations: Citation[] }> {
  const q = await ctx.cache.embedQuery(question);
  const terms = [...new Set(queryTerms(question))];
  // Facts come from the whole of each retrieved note, not only the retrieved chunk: on a multi-hop
  // question the second note is found through one passage and answers in another.
  const docRank = new Map<number, number>();
  for (const c of contexts) if (!docRank.has(c.docId)) docRank.set(c.docId, docRank.size);
  const retrievedChunks = new Set(contexts.flatMap((c) => (c.chunkId === undefined ? [] : [c.chunkId])));
  const docOf = new Map(contexts.map((c) => [c.docId, c]));
  const facts = docRank.size
    ? (ctx.db
        .prepare(
          `SELECT f.id, f.document_id, f.chunk_id, f.text, f.line_from, f.line_to, m.path_text
           FROM fcis f LEFT JOIN mm_nodes m ON m.fci_id = f.id
           WHERE f.document_id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify([...docRank.keys()])) as FactRow[])
    : [];
  const fciVectors = ctx.cache.matrix('fci');
  const lexical = factBm25(ctx, question, facts.map((f) => f.id));

  type Candidate = Omit<Citation, 'n'> & { score: number; key: string; terms: Set<string> };
  const candidates: Candidate[] = [];
  for (const f of facts) {
    const v = fciVectors.vector(f.id);
    // The retriever's order carries evidence the fact's own words lack (BM25, graph walks): keep it.
    const prior = 1 / (docRank.get(f.document_id)! + 2) + (retrievedChunks.has(f.chunk_id) ? 0.1 : 0);
    const ctxOf = docOf.get(f.document_id)!;
    candidates.push({
      key: `fci:${f.id}`,
      docId: f.document_id,
      score: (v ? dot(q, v) : 0) + (lexical.get(f.id) ?? 0) + prior,
      terms: termsIn(f.text, terms),
      docPath: ctxOf.docPath,
      docTitle: ctxOf.docTitle,
      lineFrom: f.line_from,
      lineTo: f.line_to,
      factPath: f.path_text,
      text: f.text,
    });
  }
  contexts.forEach((c, i) => {
    if (c.kind === 'chunk') return;
    candidates.push({
      key: `${c.kind}:${c.docId}:${c.lineFrom}:${c.text}`,
      docId: c.docId,
      score: 1 / (i + 1) + 0.5,
      docPath: c.docPath,
      docTitle: c.docTitle,
      lineFrom: c.lineFrom,
      lineTo: c.lineTo,
      factPath: c.factPath,
      text: c.text,
      terms: termsIn(c.text, terms),
    });
  });

  const idf = termIdf(ctx, terms);
  const totalIdf = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
  // Greedy: each pick is the best fact plus a bonus for question terms no chosen fact covers yet, so a
  // multi-hop answer gets the second hop's fact instead of a fourth restatement of the first.
  const chosen: Candidate[] = [];
  const covered = new Set<string>();
  const perDoc = new Map<number | string, number>();
  const pool = candidates.filter((c) => c.docPath);
  while (chosen.length < maxFacts) {
    let best: Candidate | null = null;
    let bestScore = -Infinity;
    for (const c of pool) {
      if ((perDoc.get(c.docId ?? c.docPath) ?? 0) >= 2 || chosen.some((x) => x.key === c.key || x.text === c.text)) continue;
      const fresh = [...c.terms].reduce((sum, t) => sum + (covered.has(t) ? 0 : (idf.get(t) ?? 0)), 0);
      const score = c.score + (COVERAGE_BONUS * fresh) / totalIdf;
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    if (!best) break;
    chosen.push(best);
    for (const t of best.terms) covered.add(t);
    perDoc.set(best.docId ?? best.docPath, (perDoc.get(best.docId ?? best.docPath) ?? 0) + 1);
  }
  const citations: Citation[] = chosen.map(({ score: _s, key: _k, terms: _t, ...c }, i) => ({ n: i + 1, ...c }));
  if (citations.length === 0) {
    const empty = ctx.db.prepare("SELECT 1 FROM documents WHERE status = 'indexed' LIMIT 1").get() === undefined;
    return { text: empty ? EMPTY_INDEX : 'Nothing in the indexed notes matches this question.', citations };
  }
  const bullets = citations.map((c) => `- ${c.factPath ? `**${c.factPath}**` : c.text}${c.factPath && !c.factPath.endsWith(c.text) ? ` — ${c.text}` : ''} [${c.n}]`);
  return { text: `${EXTRACTIVE_NOTICE}\n\n${bullets.join('\n')}`, citations };
}

/** What covering all of the question's (IDF-weighted) terms is worth, next to similarity (0–1) and BM25 (0–1). */
const COVERAGE_BONUS = 1;

/** Inverse document frequency of each term over the facts: rare words ("born") outweigh the topic's words. */
function termIdf(ctx: RetrievalContext, terms: string[]): Map<number | string, number> {
  const total = (ctx.db.prepare('SELECT count(*) FROM fcis').pluck().get() as number) || 1;
  const df = ctx.db.prepare('SELECT count(*) FROM fcis_fts WHERE fcis_fts MATCH ?').pluck();
  return new Map(terms.map((t) => [t, Math.log(1 + total / (1 + (df.get(`"${t.replaceAll('"', '""')}"`) as number)))]));
}

function termsIn(text: string, terms: string[]): Set<string> {
  const lower = text.toLowerCase();
  return new Set(terms.filter((t) => lower.includes(t)));
}

/** BM25 of the question against the given facts (corpus-wide IDF from the FCI index), scaled to 0–1. */
function factBm25(ctx: RetrievalContext, question: string, ids: number[]): Map<number, number> {
  const match = ftsQuery(question);
  if (!match || ids.length === 0) return new Map();
  const rows = ctx.db
    .prepare('SELECT rowid AS id, -bm25(fcis_fts) AS s FROM fcis_fts WHERE fcis_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))')
    .all(match, JSON.stringify(ids)) as { id: number; s: number }[];
  const max = Math.max(...rows.map((r) => r.s), 1e-9);
  return new Map(rows.map((r) => [r.id, r.s / max]));
}
