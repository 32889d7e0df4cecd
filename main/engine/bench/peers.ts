// The JavaScript search libraries a user would otherwise reach for, run over the same paragraphs so the
// bench compares side by side. Both are used with their documented defaults (title + text fields).
import MiniSearch from 'minisearch';
import { create, insertMultiple, search } from '@orama/orama';
import type { BenchParagraph } from './datasets.js';

export interface PeerIndex {
  readonly name: string;
  /** Corpus indices, best first. */
  search(question: string, k: number): Promise<number[]>;
}

export type PeerName = 'minisearch' | 'orama';
export const PEER_NAMES: PeerName[] = ['minisearch', 'orama'];

export async function buildPeer(name: PeerName, corpus: BenchParagraph[]): Promise<PeerIndex> {
  return name === 'minisearch' ? buildMiniSearch(corpus) : buildOrama(corpus);
}

function buildMiniSearch(corpus: BenchParagraph[]): PeerIndex {
  const ms = new MiniSearch<{ id: number; title: string; text: string }>({ fields: ['title', 'text'] });
  ms.addAll(corpus.map((p, id) => ({ id, title: p.title, text: p.text })));
  return {
    name: 'minisearch',
    async search(question, k) {
      return ms.search(question).slice(0, k).map((r) => Number(r.id));
    },
  };
}

async function buildOrama(corpus: BenchParagraph[]): Promise<PeerIndex> {
  const db = create({ schema: { n: 'number', title: 'string', text: 'string' } as const });
  await insertMultiple(db, corpus.map((p, n) => ({ n, title: p.title, text: p.text })), 1000);
  return {
    name: 'orama',
    async search(question, k) {
      const res = await search(db, { term: question, properties: ['title', 'text'], limit: k });
      return res.hits.map((h) => Number((h.document as { n: number }).n));
    },
  };
}
