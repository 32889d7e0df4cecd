import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { LociEngine } from '../../main/engine/engine.js';
import { loadEmbeddings, rowsMissingEmbeddings, type OwnerKind } from '../../main/engine/store/embeddings.js';
import { composableFactPaths, composedPathVector } from './fact-paths.js';

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

const KINDS: OwnerKind[] = ['doc', 'chunk', 'fci', 'entity', 'mm'];

/** Every row has the vector of its own current text from the engine's embedder, and no other row has one. */
export async function expectVectorsOfCurrentText(engine: LociEngine): Promise<void> {
  const model = engine.embedder.id;
  for (const kind of KINDS) {
    const rows = rowsMissingEmbeddings(engine.db, kind, 'no such model');
    const stored = new Map(loadEmbeddings(engine.db, kind, model).map((e) => [e.id, e.vector]));
    expect(stored.size, kind).toBe(rows.length);
    const expected = await engine.embedder.embed(rows.map(([, text]) => text.slice(0, 8000)));
    // A fact's path has its own text's vector or the one composed from its parent's and its fact's.
    const composable = kind === 'mm' ? composableFactPaths(engine.db) : new Map<number, { parent: number; fci: number }>();
    const paths = kind === 'mm' ? stored : new Map<number, Float32Array>();
    const facts = kind === 'mm' ? new Map(loadEmbeddings(engine.db, 'fci', model).map((e) => [e.id, e.vector])) : new Map<number, Float32Array>();
    rows.forEach(([id], i) => {
      const parts = composable.get(id);
      const exact = stored.get(id)!.every((x, k) => x === expected[i]![k]);
      if (parts && !exact) {
        const composed = composedPathVector(paths.get(parts.parent)!, facts.get(parts.fci)!);
        stored.get(id)!.forEach((x, k) => expect(x, `${kind} ${id}`).toBeCloseTo(composed[k]!, 6));
      } else expect([...stored.get(id)!], `${kind} ${id}`).toEqual([...expected[i]!]);
    });
  }
}
