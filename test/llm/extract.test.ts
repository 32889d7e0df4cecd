import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { DEFAULT_THRESHOLDS, rougeTokens } from '../../main/engine/extract/llm/consistency.js';
import { extractorFor, extractWithModel, type LlmExtraction } from '../../main/engine/extract/llm/extract.js';
import { dropTrailingNoise, parseOutline } from '../../main/engine/extract/llm/piece-facts.js';
import { segmentNote } from '../../main/engine/extract/llm/pre-segment.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { PROMPT_VERSION } from '../../main/engine/llm/prompts/index.js';
import type { GenerateRequest, LlmProvider } from '../../main/engine/llm/provider.js';
import type { MindMapNode, ParsedNote } from '../../main/engine/types.js';
import { tinyModelPath } from './helpers/tiny-model.js';

const NOTES = join(import.meta.dirname, '../fixtures/llm/notes');
const note = (name: string) => parseNote(name, readFileSync(join(NOTES, name), 'utf8'));

/** Checks every provenance and structure rule an Extraction must satisfy for its note. */
function assertValidExtraction(n: ParsedNote, ex: LlmExtraction, extractor: string) {
  expect(ex.extractor).toBe(extractor);
  const chunks = new Map(n.chunks.map((c) => [c.ord, c]));
  const inChunk = (item: { chunkOrd: number; lineFrom: number; lineTo: number }) => {
    const c = chunks.get(item.chunkOrd);
    expect(c, `chunk ${item.chunkOrd}`).toBeDefined();
    expect(c!.isCode).toBe(false);
    expect(item.lineFrom).toBeGreaterThanOrEqual(c!.lineFrom);
    expect(item.lineTo).toBeLessThanOrEqual(c!.lineTo);
    expect(item.lineFrom).toBeLessThanOrEqual(item.lineTo);
  };
  for (const f of ex.fcis) {
    inChunk(f);
    expect(f.text.trim().length).toBeGreaterThanOrEqual(3);
    expect(typeof f.checkRouge).toBe('number');
    expect(typeof f.checkSim).toBe('number');
    expect(f.checkPassed).toBe(f.checkRouge! >= DEFAULT_THRESHOLDS.rouge && f.checkSim! >= DEFAULT_THRESHOLDS.sim);
  }
  // Mind map: topic → routes → facts; every FCI appears exactly once, with its own line range.
  expect(ex.mindMap.kind).toBe('topic');
  expect(ex.mindMap.text).toBe(n.title);
  const placed: number[] = [];
  for (const route of ex.mindMap.children) {
    expect(route.kind).toBe('route');
    expect(route.text.length).toBeGreaterThan(0);
    expect(route.children.length).toBeGreaterThan(0);
    for (const fact of route.children as MindMapNode[]) {
      expect(fact.kind).toBe('fact');
      expect(fact.children).toEqual([]);
      const fci = ex.fcis[fact.fciIndex!]!;
      expect(fci).toBeDefined();
      expect([fact.lineFrom, fact.lineTo]).toEqual([fci.lineFrom, fci.lineTo]);
      expect(fact.lineFrom).toBeGreaterThanOrEqual(route.lineFrom!);
      expect(fact.lineTo).toBeLessThanOrEqual(route.lineTo!);
      placed.push(fact.fciIndex!);
    }
  }
  expect(placed.sort((a, b) => a - b)).toEqual(ex.fcis.map((_, i) => i));
  for (const t of ex.triples) {
    inChunk(t);
    for (const s of [t.subject, t.relation, t.object]) expect(s.trim().length).toBeGreaterThan(0);
  }
  const norms = new Set(ex.entities.map((e) => e.norm));
  for (const e of ex.entities) {
    inChunk(e);
    expect(e.norm.length).toBeGreaterThan(0);
  }
  for (const _t of ex.triples) expect(norms.size === 0 || [...norms].some((x) => x.length > 0)).toBe(true);
}

/** Records each request (a real model still answers it). */
function recording(llm: LlmProvider, log: GenerateRequest[], transform?: (r: GenerateRequest) => GenerateRequest): LlmProvider {
  return { id: llm.id, close: () => llm.close(), generate: (r) => (log.push(r), llm.generate(transform ? transform(r) : r)) };
}

describe('extractWithModel on real notes with the real tiny model', { timeout: 300_000 }, () => {
  let llm: LocalLlamaProvider;
  let embedder: Embedder;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: await tinyModelPath(), sequences: 2 });
    embedder = await createStaticEmbedder();
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('yields structurally valid FCIs, mind map, triples and entities with provenance (English)', async () => {
    const n = note('lighthouses.md');
    const log: GenerateRequest[] = [];
    const ex = await extractWithModel(n, recording(llm, log), embedder, { strategy: 'separate' });
    expect(extractorFor(llm)).toBe(`llm:stories260K@${PROMPT_VERSION}`);
    expect(extractorFor(llm, 'separate')).toBe('llm:stories260K@p1');
    assertValidExtraction(n, ex, extractorFor(llm, 'separate'));
    expect(ex.fcis.length).toBeGreaterThan(0);
    expect(ex.triples.length).toBeGreaterThan(0);
    expect(ex.entities.length).toBeGreaterThan(0);
    expect(ex.stats.calls).toBe(log.length);
    // Every structured request carried a JSON schema (grammar-constrained for the local model).
    expect(log.every((r) => r.jsonSchema !== undefined)).toBe(true);
  });

  it('uses the Chinese prompts for a Chinese note', async () => {
    const n = note('灯塔.md');
    expect(n.lang).toBe('zh');
    const log: GenerateRequest[] = [];
    for (const strategy of ['separate', 'combined'] as const) {
      const ex = await extractWithModel(n, recording(llm, log), embedder, { maxTries: 1, strategy, minSupport: 0 });
      assertValidExtraction(n, ex, extractorFor(llm, strategy));
    }
    expect(log.every((r) => /[\u4e00-\u9fff]/.test(r.system ?? ''))).toBe(true);
  }, 300_000);

  it('pre-segments a long note into pieces and keeps each item inside its own chunk', async () => {
    const full = parseNote('field-journal.md', readFileSync(join(NOTES, '../long/field-journal.md'), 'utf8'));
    expect(segmentNote(full, 800).length).toBeGreaterThan(5);
    // The model pass runs on the first dozen sections only, to keep the test quick on two cores.
    const n = { ...full, chunks: full.chunks.slice(0, 12) };
    const pieces = segmentNote(n, 400);
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces) expect(p.text.length).toBeLessThanOrEqual(400 + 2 * p.parts.length);
    const ex = await extractWithModel(n, llm, embedder, { maxPieceChars: 400, maxTries: 1, strategy: 'separate' });
    expect(ex.stats.pieces).toBe(pieces.length);
    assertValidExtraction(n, ex, extractorFor(llm, 'separate'));
    // FCIs come from more than one part of the note.
    expect(new Set(ex.fcis.map((f) => f.chunkOrd)).size).toBeGreaterThan(1);
  }, 300_000);

  it('regenerates a piece that fails the consistency check, at most maxTries times', async () => {
    const n = note('automation.md');
    const log: GenerateRequest[] = [];
    // Thresholds no output can meet force every regeneration.
    const ex = await extractWithModel(n, recording(llm, log), embedder, { strategy: 'separate', maxTries: 3, thresholds: { rouge: 1.01, sim: 1.01 } });
    const fciCalls = log.filter((r) => r.prompt.includes('Fact-checking items')).length;
    expect(fciCalls).toBeGreaterThanOrEqual(3);
    expect(fciCalls).toBeLessThanOrEqual(3 * 2); // tries × (1 + json retry)
    expect(ex.fcis.length).toBeGreaterThan(0); // the best try is kept…
    expect(ex.fcis.every((f) => f.checkPassed === false)).toBe(true); // …and marked as failing
  });

  it('is reproducible: the same note and model give the same extraction (seeded sampling on regeneration)', async () => {
    const n = note('automation.md');
    for (const strategy of ['separate', 'combined'] as const) {
      const opts = { strategy, minSupport: 0, maxTries: 2, thresholds: { rouge: 1.01, sim: 1.01 } }; // forces a second, sampled try
      const a = await extractWithModel(n, llm, embedder, opts);
      const b = await extractWithModel(n, llm, embedder, opts);
      expect(b.fcis).toEqual(a.fcis);
      expect(b.mindMap).toEqual(a.mindMap);
      expect(b.triples).toEqual(a.triples);
    }
  });

  it('p2: one grammar-constrained call per piece gives FCIs and routes; triples come from the FCIs, not from more calls', async () => {
    const n = note('lighthouses.md');
    const log: GenerateRequest[] = [];
    // The story model's 512-token vocabulary spells JSON almost character by character: give it room to close.
    const ex = await extractWithModel(n, recording(llm, log), embedder, { strategy: 'combined', minSupport: 0, maxTries: 1, maxTokens: { piece: 1200 } });
    assertValidExtraction(n, ex, extractorFor(llm, 'combined'));
    expect(ex.stats.calls).toBe(log.length);
    // One call per piece, plus at most one JSON re-ask each.
    expect(log.length).toBeGreaterThanOrEqual(ex.stats.pieces);
    expect(log.length).toBeLessThanOrEqual(2 * ex.stats.pieces);
    expect(log.every((r) => r.jsonSchema !== undefined && r.maxTokens === 1200)).toBe(true);
    expect(ex.fcis.length).toBeGreaterThan(0);
    expect(ex.stats.attempts.filter((a) => a.kept)).toHaveLength(ex.stats.pieces);
  });

  it('p2: regenerates a piece only when the check fails by the margin, and drops facts the piece does not support', async () => {
    const n = note('automation.md');
    const pieces = segmentNote(n, 900).length;
    // Unreachable thresholds fail by any margin: every piece is tried maxTries times.
    const failing: GenerateRequest[] = [];
    await extractWithModel(n, recording(llm, failing), embedder, { strategy: 'combined', minSupport: 0, maxTries: 2, thresholds: { rouge: 1.01, sim: 1.01 } });
    expect(failing.length).toBeGreaterThanOrEqual(2 * pieces);
    // Output is bounded per piece by default.
    expect(failing.every((r) => r.maxTokens === 320)).toBe(true);
    // Thresholds of zero pass at once: one try per piece.
    const passing: GenerateRequest[] = [];
    await extractWithModel(n, recording(llm, passing), embedder, { strategy: 'combined', minSupport: 0, maxTries: 2, thresholds: { rouge: 0, sim: -1 } });
    expect(passing.length).toBeLessThan(failing.length);
    // The story model's facts are not in the note: with the default support filter nothing it invents is kept.
    const strict = await extractWithModel(n, llm, embedder, { strategy: 'combined', maxTries: 1 });
    const vocab = n.chunks.map((c) => c.text.toLowerCase()).join(' ');
    for (const f of strict.fcis) {
      const words = f.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      expect(words.filter((w) => vocab.includes(w)).length / words.length).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('p3f (default): free text is parsed late into routes and facts, stopped at the first loop; the grammar is used only when nothing parses', async () => {
    expect(parseOutline('Route: History\n- It opened in 1962.\n- It was rebuilt.\nRoute: Staff\n* Ann runs it.', 'Default')).toEqual([
      { route: 'History', facts: ['It opened in 1962.', 'It was rebuilt.'] },
      { route: 'Staff', facts: ['Ann runs it.'] },
    ]);
    expect(parseOutline('The library opened in 1962. It holds books.', 'Default')).toEqual([{ route: 'Default', facts: ['The library opened in 1962.', 'It holds books.'] }]);
    expect(parseOutline('Excerpt:\nThe library opened\nin 1962.\n- It holds books.\nStaff: three.', 'Default')).toEqual([
      { route: 'Default', facts: ['The library opened in 1962.', 'It holds books.', 'Staff: three.'] },
    ]);
    const n = note('lighthouses.md');
    const log: GenerateRequest[] = [];
    const ex = await extractWithModel(n, recording(llm, log), embedder, { minSupport: 0, maxTries: 1 });
    expect(extractorFor(llm)).toBe('llm:stories260K@p3f');
    assertValidExtraction(n, ex, extractorFor(llm, 'free'));
    expect(log[0]?.jsonSchema).toBeUndefined();
    expect(log[0]?.stopOnLoop).toBe(true);
  });

  it('p3f: facts filed under no route go under the section they came from (a base model restating the excerpt)', async () => {
    const n = note('lighthouses.md');
    // What Gemma 3 270M (a base model) does with this prompt: it restates the excerpt, headers and all.
    const restating: LlmProvider = {
      id: 'restating',
      close: async () => {},
      generate: async (r) => ({ text: `${r.prompt} denaro\nに通る\n`, tokens: 1 }),
    };
    const ex = await extractWithModel(n, restating, embedder, { maxTries: 1 });
    // Sentences the note wraps over two lines come back whole; the drift at the end of the turn is gone.
    expect(ex.fcis.map((f) => f.text)).toContain('Its lamp burned whale oil until 1871, when the keepers switched to paraffin.');
    expect(ex.fcis.some((f) => /denaro|に通る/.test(f.text))).toBe(false);
    // A section's route is its heading; text before the first heading goes under the note's title.
    const sectionOf = (ord: number) => n.chunks.find((c) => c.ord === ord)!.headingPath.at(-1) ?? n.title;
    const routes = ex.mindMap.children;
    expect(routes.map((r) => r.text).sort()).toEqual([...new Set(n.chunks.map((c) => sectionOf(c.ord)))].sort());
    for (const route of routes) {
      expect(route.children.length).toBeGreaterThan(0);
      for (const fact of route.children) expect(sectionOf(ex.fcis[fact.fciIndex!]!.chunkOrd)).toBe(route.text);
    }
  });

  it('p3f: drops facts that restate a sentence with its meaning reversed, and keeps the rest', async () => {
    const n = note('lighthouses.md');
    // A model restating the excerpt that reverses three sentences: an antonym, another, an added negation.
    const flipping: LlmProvider = {
      id: 'flipping',
      close: async () => {},
      generate: async (r) => ({
        text: r.prompt
          .replace('The tower opens to visitors', 'The tower closes to visitors')
          .replace('The last keeper left', 'The first keeper left')
          .replace('Three keepers lived', 'Three keepers never lived'),
        tokens: 1,
      }),
    };
    const kept = (await extractWithModel(n, flipping, embedder, { maxTries: 1 })).fcis.map((f) => f.text);
    expect(kept.some((f) => /closes to visitors|first keeper left|never lived/.test(f))).toBe(false);
    expect(kept).toContain('The tower is 31 metres tall and stands on a basalt outcrop.');
    expect(kept).toContain('Its lamp burned whale oil until 1871, when the keepers switched to paraffin.');
    // The same model restating faithfully keeps those sentences.
    const faithful: LlmProvider = { id: 'faithful', close: async () => {}, generate: async (r) => ({ text: r.prompt, tokens: 1 }) };
    const all = (await extractWithModel(n, faithful, embedder, { maxTries: 1 })).fcis.map((f) => f.text);
    expect(all.some((f) => f.startsWith('The tower opens to visitors'))).toBe(true);
    expect(all.some((f) => f.startsWith('The last keeper left in 1989'))).toBe(true);
    expect(all.some((f) => f.startsWith('Three keepers lived'))).toBe(true);
    // A list item of two sentences is two sentences to restate: the first alone, without the second's "no", stays.
    const listed = parseNote('list.md', '# Club\n\n- Members meet on Fridays. No guests come in winter.\n- The room holds twelve.\n');
    const first: LlmProvider = { id: 'first-sentence', close: async () => {}, generate: async () => ({ text: '- Members meet on Fridays.\n- The room holds twelve.', tokens: 1 }) };
    expect((await extractWithModel(listed, first, embedder, { maxTries: 1 })).fcis.map((f) => f.text)).toContain('Members meet on Fridays.');
  });

  it('drops the words a model drifts into at the end of its turn, glued on or after a link, and nothing it read', () => {
    // The tails are Gemma 3 270M's, from a model pass over six SilverBullet notes; the piece text is our own.
    const vocab = new Set(rougeTokens('The server is a dumb file store. See [[Architecture/Syscalls]] and the token (or none). Node.js 2.0 runs it.'));
    expect(dropTrailingNoise('The server is a dumb file store.iatrics', vocab)).toBe('The server is a dumb file store.');
    expect(dropTrailingNoise('See [[Architecture/Syscalls]] staan', vocab)).toBe('See [[Architecture/Syscalls]]');
    expect(dropTrailingNoise('The token (or none) mendatang', vocab)).toBe('The token (or none)');
    expect(dropTrailingNoise('See [[Architecture/Syscalls]] staan LoginPage', vocab)).toBe('See [[Architecture/Syscalls]]');
    // Words the piece has stay, however they follow a full stop or bracket; so do longer endings.
    expect(dropTrailingNoise('Node.js runs it', vocab)).toBe('Node.js runs it');
    expect(dropTrailingNoise('It runs on Node.js', vocab)).toBe('It runs on Node.js');
    expect(dropTrailingNoise('The server (a dumb file store) runs it', vocab)).toBe('The server (a dumb file store) runs it');
    expect(dropTrailingNoise('Node.js 2.0 runs it on weekdays only', vocab)).toBe('Node.js 2.0 runs it on weekdays only');
  });

  it('asks the model nothing for a note without prose (code only), and still gives it a topic', async () => {
    const n = parseNote('snippet.md', '# Snippet\n\n```js\nconsole.log(1);\n```\n');
    const log: GenerateRequest[] = [];
    const ex = await extractWithModel(n, recording(llm, log), embedder);
    expect(log).toHaveLength(0);
    expect(ex.fcis).toEqual([]);
    expect(ex.mindMap).toMatchObject({ kind: 'topic', children: [] });
  });

  it('never crashes on broken model output: failures are recorded and the structure stays valid', async () => {
    const n = note('automation.md');
    // The same real model, asked without its schema, writes prose instead of JSON.
    const unconstrained = recording(llm, [], (r) => ({ ...r, jsonSchema: undefined, maxTokens: 24 }));
    const ex = await extractWithModel(n, unconstrained, embedder, { strategy: 'combined', maxTries: 2, jsonRetries: 1 });
    expect(ex.stats.failures.length).toBeGreaterThan(0);
    expect(ex.fcis).toEqual([]);
    expect(ex.triples).toEqual([]);
    expect(ex.mindMap).toMatchObject({ kind: 'topic', text: n.title, children: [] });
  });
});
