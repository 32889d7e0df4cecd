// Related notes (issue 11 item 4): a note's neighbours on three layers the index already has, each
// with why — the document layer (KG-Retriever's similar-document edges, with the most similar passage
// pair), shared entities weighted by IDF (a rare shared name says more than a common one), and
// super-topics (PG-RAG's fused topics of different notes).
import type { Db } from '../store/db.js';
import type { RelatedNote, RelatedReason } from '../api.js';
import { dot } from '../embed/embedder.js';
import {
  chunkVectors,
  docNeighbours,
  documentHeaders,
  entityDocumentFrequencies,
  indexedDocumentCount,
  sharedEntities,
  sharedSuperTopics,
  type ChunkVectorRow,
} from '../store/graph-queries.js';

export const DEFAULT_RELATED_LIMIT = 10;
/** Shared entities named per related note; the rest still count in its score. */
const ENTITIES_SHOWN = 5;
const PASSAGE_CHARS = 240;

interface Candidate {
  similar: number;
  entityIdf: number;
  topic: number;
  reasons: RelatedReason[];
}

/**
 * Notes related to `docId`, best first, each with its reasons. `model` is the embedder whose chunk
 * vectors pick the most similar passage pair for document-layer neighbours (skipped when absent).
 */
export function relatedNotes(db: Db, docId: number, model: string, limit = DEFAULT_RELATED_LIMIT): RelatedNote[] {
  const byDoc = new Map<number, Candidate>();
  const candidate = (id: number) => {
    let c = byDoc.get(id);
    if (!c) byDoc.set(id, (c = { similar: 0, entityIdf: 0, topic: 0, reasons: [] }));
    return c;
  };

  for (const n of docNeighbours(db, docId)) {
    const c = candidate(n.docId);
    c.similar = n.weight;
  }

  const total = indexedDocumentCount(db);
  const idf = (df: number) => Math.log((total + 1) / (df + 0.5));
  const myWeight = entityDocumentFrequencies(db, docId).reduce((s, e) => s + idf(e.df), 0);
  const entityRows = sharedEntities(db, docId).sort((a, b) => a.df - b.df || a.name.localeCompare(b.name));
  for (const e of entityRows) {
    const c = candidate(e.docId);
    c.entityIdf += idf(e.df);
    if (c.reasons.filter((r) => r.kind === 'entity').length < ENTITIES_SHOWN) {
      c.reasons.push({ kind: 'entity', text: e.name, weight: idf(e.df), lineFrom: e.lineFrom, lineTo: e.lineTo });
    }
  }

  const topicSeen = new Set<string>();
  for (const t of sharedSuperTopics(db, docId).sort((a, b) => b.sim - a.sim)) {
    const c = candidate(t.docId);
    c.topic = Math.max(c.topic, t.sim);
    const key = `${t.docId}:${t.superId}`;
    if (topicSeen.has(key)) continue;
    topicSeen.add(key);
    c.reasons.push({ kind: 'super-topic', text: t.text, weight: t.sim, lineFrom: t.lineFrom, lineTo: t.lineTo });
  }

  const score = (c: Candidate) => c.similar + (myWeight > 0 ? c.entityIdf / myWeight : 0) + c.topic;
  const ranked = [...byDoc].sort((a, b) => score(b[1]) - score(a[1]) || a[0] - b[0]).slice(0, limit);

  // Passage pairs only for the notes shown: each costs a pass over both notes' chunk vectors.
  const mine = ranked.some(([, c]) => c.similar > 0) ? chunkVectors(db, docId, model) : [];
  const headers = new Map(documentHeaders(db, ranked.map(([id]) => id)).map((h) => [h.id, h]));
  return ranked.flatMap(([id, c]) => {
    const h = headers.get(id);
    if (!h) return [];
    const reasons = [...c.reasons];
    if (c.similar > 0) reasons.unshift(similarReason(c.similar, mine, chunkVectors(db, id, model)));
    return [{ docId: id, docPath: h.relPath, title: h.title, score: score(c), reasons }];
  });
}

/** The document-layer reason, naming the pair of passages (one per note) that are most alike. */
function similarReason(weight: number, mine: ChunkVectorRow[], theirs: ChunkVectorRow[]): RelatedReason {
  let best: { a: ChunkVectorRow; b: ChunkVectorRow; sim: number } | null = null;
  for (const a of mine) {
    for (const b of theirs) {
      const sim = dot(a.vector, b.vector);
      if (!best || sim > best.sim) best = { a, b, sim };
    }
  }
  if (!best) return { kind: 'similar', text: 'Similar as a whole (document layer)', weight, lineFrom: null, lineTo: null };
  return {
    kind: 'similar',
    text: clip(best.b.text),
    weight,
    lineFrom: best.b.lineFrom,
    lineTo: best.b.lineTo,
    mine: { text: clip(best.a.text), lineFrom: best.a.lineFrom, lineTo: best.a.lineTo, sim: best.sim },
  };
}

const clip = (s: string) => (s.length > PASSAGE_CHARS ? `${s.slice(0, PASSAGE_CHARS - 1)}…` : s);
