// The JavaScript search libraries a user would otherwise reach for, run over the same paragraphs so the
// bench compares side by side. Both are used with their documented defaults (title + text fields); for
// Chinese text, whose words no default tokenizer can split, both get the custom tokenizer their docs
// prescribe for CJK — here the same jieba segmentation Loci's index uses. Both are devDependencies,
// imported when a peer is built: a static import would put them on every start of the bundled CLI.
import type { BenchParagraph } from './dataset.js';
import type { PeerName } from './names.js';
import { segmentWords } from '../engine/text/segment.js';

export interface PeerIndex {
  readonly name: string;
  /** Corpus indices, best first. */
  search(question: string, k: number): Promise<number[]>;
}

export async function buildPeer(name: PeerName, corpus: BenchParagraph[]): Promise<PeerIndex> {
  const cjk = mostlyHan(corpus.slice(0, 50).map((p) => p.text).join(''));
  return name === 'minisearch' ? buildMiniSearch(corpus, cjk) : buildOrama(corpus, cjk);
}

/** Chinese corpora, not English ones that quote a name in Chinese now and then. */
function mostlyHan(sample: string): boolean {
  const han = sample.match(/\p{Script=Han}/gu)?.length ?? 0;
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  return letters > 0 && han / letters > 0.3;
}

async function buildMiniSearch(corpus: BenchParagraph[], cjk: boolean): Promise<PeerIndex> {
  const { default: MiniSearch } = await import('minisearch');
  const ms = new MiniSearch<{ id: number; title: string; text: string }>({
    fields: ['title', 'text'],
    ...(cjk ? { tokenize: (text: string) => segmentWords(text) } : {}),
  });
  ms.addAll(corpus.map((p, id) => ({ id, title: p.title, text: p.text })));
  return {
    name: 'minisearch',
    async search(question, k) {
      return ms.search(question).slice(0, k).map((r) => Number(r.id));
    },
  };
}

async function buildOrama(corpus: BenchParagraph[], cjk: boolean): Promise<PeerIndex> {
  const { create, insertMultiple, search } = await import('@orama/orama');
  const schema = { n: 'number', title: 'string', text: 'string' } as const;
  const tokenizer = { language: 'english', normalizationCache: new Map<string, string>(), tokenize: (raw: string) => segmentWords(raw) };
  const db = cjk ? create({ schema, components: { tokenizer } }) : create({ schema });
  await insertMultiple(db, corpus.map((p, n) => ({ n, title: p.title, text: p.text })), 1000);
  return {
    name: 'orama',
    async search(question, k) {
      const res = await search(db, { term: question, properties: ['title', 'text'], limit: k });
      return res.hits.map((h) => Number((h.document as { n: number }).n));
    },
  };
}
