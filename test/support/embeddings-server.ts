import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { LociEngine } from '../../main/engine/engine.js';
import { loadEmbeddings, rowsMissingEmbeddings, type OwnerKind } from '../../main/engine/store/embeddings.js';
import { estimatedTokens } from '../../main/engine/embed/estimated-tokens.js';
import { composablePaths, composedPathVector } from './fact-paths.js';

/**
 * An OpenAI-compatible embeddings server whose vectors follow each text's length and first and last
 * characters. Once `hold` is set, it keeps every request that `held` picks unanswered until `release`
 * (a switch's own batches, say, while an index run's are answered).
 */
export async function embeddingsServer(held: (input: string[]) => boolean = () => false) {
  let hold = false;
  const waiting: (() => void)[] = [];
  /** Every text the server was asked to embed, in order. */
  const texts: string[] = [];
  let heldOne = () => {};
  const firstHeld = new Promise<void>((r) => (heldOne = r));
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const input = (JSON.parse(body) as { input: string[] }).input;
      texts.push(...input);
      const answer = () => {
        const vector = (t: string) => [(t.length % 7) + 1, (t.charCodeAt(0) || 1) % 5, (t.charCodeAt(t.length - 1) || 1) % 11, 1];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: vector(t) })) }));
      };
      if (hold && held(input)) {
        waiting.push(answer);
        heldOne();
      } else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    spec: `openai:http://127.0.0.1:${(server.address() as AddressInfo).port}/v1#by-characters`,
    texts,
    holdFromNow: () => (hold = true),
    firstHeld,
    release: () => {
      hold = false;
      for (const answer of waiting.splice(0)) answer();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const KINDS: OwnerKind[] = ['chunk', 'doc', 'fci', 'entity', 'mm'];

/**
 * Every row has the vector of its own current text from the engine's embedder, or the one derived from
 * its parts: a note of several passages from its passages' vectors (weighted by their tokens), a path
 * from its parent's and its fact's (or its own text's). No other row has one.
 */
export async function expectVectorsOfCurrentText(engine: LociEngine): Promise<void> {
  const model = engine.embedder.id;
  const stored = new Map(KINDS.map((kind) => [kind, new Map(loadEmbeddings(engine.db, kind, model).map((e) => [e.id, e.vector]))]));
  const passages = engine.db
    .prepare("SELECT c.document_id doc, c.id, d.title || ' ' || c.text text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.is_code = 0 ORDER BY c.document_id, c.ord")
    .all() as { doc: number; id: number; text: string }[];
  const cut = engine.embedder.maxTokens ?? 512;
  const derived = (kind: OwnerKind, id: number): Float32Array | null => {
    if (kind === 'doc') {
      const own = passages.filter((p) => p.doc === id);
      if (own.length < 2) return null;
      const v = new Float32Array(engine.embedder.dim);
      let before = 0;
      for (const p of own) {
        const tokens = estimatedTokens(p.text, cut);
        const weight = Math.max(0, Math.min(tokens, cut - before));
        before += tokens;
        stored.get('chunk')!.get(p.id)!.forEach((x, k) => (v[k]! += weight * x));
      }
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    }
    return null;
  };
  const paths = composablePaths(engine.db);
  for (const kind of KINDS) {
    const rows = rowsMissingEmbeddings(engine.db, kind, 'no such model');
    const mine = stored.get(kind)!;
    expect(mine.size, kind).toBe(rows.length);
    const expected = await engine.embedder.embed(rows.map(([, text]) => text.slice(0, 8000)));
    for (const [i, [id]] of rows.entries()) {
      const exact = mine.get(id)!.every((x, k) => x === expected[i]![k]);
      if (exact) continue;
      const part = kind === 'mm' ? paths.get(id) : undefined;
      const other = part
        ? composedPathVector(mine.get(part.parent)!, part.fci === null ? (await engine.embedder.embed([part.text]))[0]! : stored.get('fci')!.get(part.fci)!)
        : derived(kind, id);
      if (!other) expect([...mine.get(id)!], `${kind} ${id}`).toEqual([...expected[i]!]);
      else mine.get(id)!.forEach((x, k) => expect(x, `${kind} ${id}`).toBeCloseTo(other[k]!, 6));
    }
  }
}
