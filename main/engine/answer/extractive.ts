import type { RetrievalContext } from '../retrieve/retriever.js';
import type { RetrievedContext } from '../types.js';
import type { Citation } from '../api.js';
import { dot } from '../embed/embedder.js';

export const EXTRACTIVE_NOTICE =
  'No language model is installed, so this answer is extractive: the facts in your notes that best match the question, each cited. A model would write a direct answer from them.';

interface FactRow {
  id: number;
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
  const chunkIds = contexts.flatMap((c) => (c.kind === 'chunk' && c.chunkId !== undefined ? [c.chunkId] : []));
  const facts = chunkIds.length
    ? (ctx.db
        .prepare(
          `SELECT f.id, f.chunk_id, f.text, f.line_from, f.line_to, m.path_text
           FROM fcis f LEFT JOIN mm_nodes m ON m.fci_id = f.id
           WHERE f.chunk_id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(chunkIds)) as FactRow[])
    : [];
  const fciVectors = ctx.cache.matrix('fci');
  const rankOfChunk = new Map(chunkIds.map((id, i) => [id, i]));

  type Candidate = Omit<Citation, 'n'> & { score: number; key: string };
  const candidates: Candidate[] = [];
  for (const f of facts) {
    const v = fciVectors.vector(f.id);
    const sim = v ? dot(q, v) : 0;
    // The retriever's order carries evidence the fact's own vector lacks (BM25, graph walks): keep it.
    const rank = rankOfChunk.get(f.chunk_id) ?? chunkIds.length;
    const ctxOf = contexts.find((c) => c.chunkId === f.chunk_id);
    candidates.push({
      key: `fci:${f.id}`,
      score: sim + 1 / (rank + 2),
      docPath: ctxOf?.docPath ?? '',
      docTitle: ctxOf?.docTitle ?? '',
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
      score: 1 / (i + 1) + 0.5,
      docPath: c.docPath,
      docTitle: c.docTitle,
      lineFrom: c.lineFrom,
      lineTo: c.lineTo,
      factPath: c.factPath,
      text: c.text,
    });
  });

  const chosen: Candidate[] = [];
  const perDoc = new Map<string, number>();
  for (const c of candidates.sort((a, b) => b.score - a.score)) {
    if (chosen.length >= maxFacts) break;
    if (!c.docPath || chosen.some((x) => x.key === c.key || x.text === c.text)) continue;
    const used = perDoc.get(c.docPath) ?? 0;
    if (used >= 2) continue; // spread the answer over notes: multi-hop questions need more than one
    perDoc.set(c.docPath, used + 1);
    chosen.push(c);
  }
  const citations: Citation[] = chosen.map(({ score: _s, key: _k, ...c }, i) => ({ n: i + 1, ...c }));
  if (citations.length === 0) {
    return { text: 'Nothing in the indexed notes matches this question.', citations };
  }
  const bullets = citations.map((c) => `- ${c.factPath ? `**${c.factPath}**` : c.text}${c.factPath && !c.factPath.endsWith(c.text) ? ` — ${c.text}` : ''} [${c.n}]`);
  return { text: `${EXTRACTIVE_NOTICE}\n\n${bullets.join('\n')}`, citations };
}
