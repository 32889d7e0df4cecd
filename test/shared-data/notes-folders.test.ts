import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { LociEngine } from '../../main/engine/engine.js';
import { at, must } from '../support/must.js';

// Real third-party notes and news from ../shared/data (read in place, never copied into the project).
const shared = resolve(import.meta.dirname, '../../../shared/data');
const hasShared = existsSync(shared);
if (!hasShared) console.warn(`[skip] ${shared} is absent: the shared-data suite needs it.`);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-shared-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe.runIf(hasShared).each(['silverbullet_docs', 'foam_docs'])('the %s notes folder', (name) => {
  it('indexes into every layer and answers with exact note lines', async () => {
    const root = join(shared, 'notes', name);
    const engine = await LociEngine.open({ dbPath: join(dir, `${name}.db`) });
    try {
      const r = await engine.library.index(root);
      for (const k of ['documents', 'chunks', 'fcis', 'mindMapNodes', 'entities', 'triples', 'docEdges', 'superNodes'] as const) {
        expect(r.counts[k], k).toBeGreaterThan(0);
      }
      const question = name === 'foam_docs' ? 'How do I create a daily note?' : 'How do I write a query in a template?';
      for (const method of ['bm25', 'dense', 'hybrid'] as const) {
        const a = await engine.answers.ask(question, { method, k: 5 });
        expect(a.contexts.length).toBeGreaterThan(0);
        for (const c of a.citations) {
          const lines = (await readFile(join(root, c.docPath), 'utf8')).split('\n').slice(c.lineFrom - 1, c.lineTo).join('\n');
          for (const w of c.text.match(/[\p{L}\p{N}]{4,}/gu) ?? []) expect(lines).toContain(w);
        }
      }
      // The top hits are about the question, not random notes: some cited text shares its key word.
      const a = await engine.answers.ask(question, { method: 'hybrid', k: 5 });
      const keyWord = name === 'foam_docs' ? /daily/i : /query|template/i;
      expect(a.contexts.some((c) => keyWord.test(c.text) || keyWord.test(c.docPath))).toBe(true);
    } finally {
      await engine.close();
    }
  });
});

describe.runIf(hasShared)('Chinese news (CRUD-RAG)', () => {
  it('segments, searches with BM25 and builds mind maps for Chinese notes', async () => {
    const notes = join(dir, 'crud-notes');
    await mkdir(notes, { recursive: true });
    const rl = createInterface({ input: createReadStream(join(shared, 'crud/news.jsonl.gz')).pipe(createGunzip()) });
    const docs: { id: string; text: string }[] = [];
    for await (const line of rl) {
      docs.push(JSON.parse(line));
      if (docs.length === 40) break;
    }
    rl.close();
    for (const d of docs) await writeFile(join(notes, `${d.id}.txt`), d.text);
    const engine = await LociEngine.open({ dbPath: join(dir, 'crud.db') });
    try {
      const r = await engine.library.index(notes);
      expect(r.counts.documents).toBe(docs.length);
      expect(r.counts.fcis).toBeGreaterThan(docs.length);
      const langs = engine.views.documents().map((d) => d.lang);
      expect(langs.filter((l) => l === 'zh').length).toBeGreaterThan(docs.length * 0.8);
      // Ask with a phrase taken from one article: BM25 must find that article first.
      const target = at(docs, 7);
      const phrase = [...target.text.matchAll(/[\u4e00-\u9fff]{6,12}/g)].map((m) => m[0])[3];
      expect(phrase).toBeTruthy();
      const a = await engine.answers.ask(must(phrase, 'a phrase from the article'), { method: 'bm25', k: 3 });
      expect(at(a.contexts, 0).docPath).toBe(`${target.id}.txt`);
      const map = engine.views.mindMap(`${target.id}.txt`);
      expect(map?.children.length).toBeGreaterThan(0);
      const sample = readFileSync(join(notes, `${target.id}.txt`), 'utf8').split('\n');
      const leaf = findFact(map!);
      expect(leaf).toBeTruthy();
      expect(sample.slice(leaf!.lineFrom! - 1, leaf!.lineTo!).join('')).toContain(leaf!.text.slice(0, 4));
    } finally {
      await engine.close();
    }
  });
});

type MapNode = { kind: string; text: string; lineFrom: number | null; lineTo: number | null; children: MapNode[] };

function findFact(node: MapNode): MapNode | null {
  if (node.kind === 'fact') return node;
  for (const c of node.children) {
    const f = findFact(c);
    if (f) return f;
  }
  return null;
}
