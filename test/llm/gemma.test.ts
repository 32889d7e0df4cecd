// The whole model path on a real chat model — Gemma 3 270M (Q4_K_M), staged outside the repo by
// scripts/fetch-bench-models. Skipped, with the reason printed, where it is not staged. The model is weak,
// so every assertion is about structure and provenance, never about what it wrote. One short note keeps
// CI time down; token limits are small for the same reason.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAnswer, keyPoints } from '../../main/engine/answer/generate.js';
import type { Embedder } from '../../main/engine/embed/embedder.js';
import { createStaticEmbedder } from '../../main/engine/embed/static-embedder.js';
import { extractorFor, extractWithModel } from '../../main/engine/extract/llm/extract.js';
import { refineIndex } from '../../main/engine/extract/llm/refine.js';
import { parseNote } from '../../main/engine/ingest/parse.js';
import { indexFolder } from '../../main/engine/index/run.js';
import { LocalLlamaProvider } from '../../main/engine/llm/local/local-provider.js';
import { openLlm } from '../../main/engine/llm/open.js';
import { PROMPT_VERSION } from '../../main/engine/llm/prompts/index.js';
import { openDb } from '../../main/engine/store/db.js';
import type { RetrievedContext } from '../../main/engine/types.js';
import { findBenchModel } from '../support/bench-models.js';
import { startOpenAiServer } from './helpers/openai-server.js';

const GEMMA = findBenchModel('gemma');
const SLOW = 15 * 60_000; // two shared cores under load: a few hundred tokens can take minutes

// Written for this test (not from any data set): two short sections, numbers and names to keep.
const NOTE = `# Harbour Bakery

The Harbour Bakery opened in 1998 on Quay Street. It bakes rye bread every morning at 5:00.

## Owner
Ines Varga has run the bakery since 2010.
`;

const contexts: RetrievedContext[] = [
  { text: 'The Harbour Bakery opened in 1998 on Quay Street.', docId: 1, docPath: 'bakery.md', docTitle: 'Harbour Bakery', lineFrom: 3, lineTo: 3, factPath: null, score: 1, kind: 'chunk' },
  { text: 'Ines Varga has run the bakery since 2010.', docId: 1, docPath: 'bakery.md', docTitle: 'Harbour Bakery', lineFrom: 6, lineTo: 6, factPath: null, score: 0.5, kind: 'chunk' },
];

describe.skipIf(!GEMMA)('the LLM path on the staged Gemma 3 270M', () => {
  let llm: LocalLlamaProvider;
  let embedder: Embedder;
  beforeAll(async () => {
    llm = await LocalLlamaProvider.open({ modelPath: GEMMA!, threads: 1, sequences: 1 });
    embedder = await createStaticEmbedder();
  }, SLOW);
  afterAll(async () => {
    await llm?.close();
  });

  it('loads with node-llama-cpp chat wrapper resolved from the GGUF (Gemma turns), not a forced mode', () => {
    expect(llm.info?.mode).toBe('chat');
    expect(llm.info?.chatWrapper).toBe('Gemma');
    expect(llm.id).toBe('gemma-3-270m');
  });

  it('extracts FCIs grouped under routes in one call per piece (free text, parsed late: the default), every item traced to its lines', async () => {
    const note = parseNote('bakery.md', NOTE);
    const ex = await extractWithModel(note, llm, embedder, { maxTries: 1 });
    expect(ex.extractor).toBe(`llm:gemma-3-270m@${PROMPT_VERSION}`);
    // One call per piece (plus at most one re-ask when a reply does not validate); no mind-map or triple calls.
    expect(ex.stats.calls).toBeGreaterThanOrEqual(ex.stats.pieces);
    expect(ex.stats.calls).toBeLessThanOrEqual(2 * ex.stats.pieces);
    expect(ex.stats.attempts.filter((a) => a.kind === 'piece')).toHaveLength(ex.stats.pieces);
    expect(ex.stats.attempts.every((a) => a.kind === 'piece')).toBe(true);
    const chunks = new Map(note.chunks.map((c) => [c.ord, c]));
    for (const f of ex.fcis) {
      const c = chunks.get(f.chunkOrd)!;
      expect(f.lineFrom).toBeGreaterThanOrEqual(c.lineFrom);
      expect(f.lineTo).toBeLessThanOrEqual(c.lineTo);
    }
    expect(ex.mindMap).toMatchObject({ kind: 'topic', text: 'Harbour Bakery' });
    const placed = ex.mindMap.children.flatMap((r) => r.children.map((f) => f.fciIndex));
    expect(placed.sort()).toEqual(ex.fcis.map((_, i) => i));
    for (const t of ex.triples) expect(chunks.has(t.chunkOrd)).toBe(true);
    // The grammar held: either the reply validated, or the failure is recorded (never a crash).
    expect(ex.stats.attempts.every((a) => a.valid) || ex.stats.failures.length > 0).toBe(true);
  }, SLOW);

  it('fills an index through the background pass with extractor = this model (what `loci index --model` runs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-gemma-'));
    try {
      mkdirSync(join(dir, 'notes'));
      writeFileSync(join(dir, 'notes', 'bakery.md'), NOTE);
      const db = openDb(join(dir, 'index.db'));
      await indexFolder(db, embedder, join(dir, 'notes'));
      const report = await refineIndex(db, embedder, llm, { maxTries: 1 });
      expect(report.extractor).toBe(extractorFor(llm));
      expect(report.refined + report.failed.length).toBe(1);
      if (report.refined === 1) {
        const rows = db.prepare('SELECT count(*) AS n FROM mm_nodes WHERE extractor = ?').get(report.extractor) as { n: number };
        expect(rows.n).toBeGreaterThan(0); // at least the topic node
      }
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, SLOW);

  it('streams a cited answer whose citations all resolve, and writes key points', async () => {
    const streamed: string[] = [];
    const r = await generateAnswer(llm, 'When did the Harbour Bakery open?', contexts, { onToken: (t) => streamed.push(t), maxTokens: 48 });
    expect(streamed.length).toBeGreaterThan(0);
    expect(r.tokens).toBeGreaterThan(0);
    for (const n of r.citations) expect(n >= 1 && n <= contexts.length).toBe(true);
    const cited = [...streamed.join('').matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(cited.every((n) => n >= 1 && n <= contexts.length)).toBe(true);
    const kps = await keyPoints(llm, 'Who runs the Harbour Bakery?');
    expect(Array.isArray(kps)).toBe(true);
    expect(kps.length).toBeLessThanOrEqual(5);
  }, SLOW);

  it('serves the OpenAI-compatible provider from the same model over real HTTP (streaming and JSON schema)', async () => {
    const server = await startOpenAiServer(llm, 'gemma-3-270m');
    try {
      const remote = await openLlm(`${server.url}/v1#gemma-3-270m`);
      const pieces: string[] = [];
      const r = await remote.generate({ system: 'Answer briefly.', prompt: 'Name a bread.', maxTokens: 16, onToken: (t) => pieces.push(t) });
      expect(pieces.join('')).toBe(r.text);
      const schema = { type: 'object', properties: { bread: { type: 'string', maxLength: 40 } }, required: ['bread'] };
      const j = await remote.generate({ prompt: 'Name a bread as JSON.', maxTokens: 40, jsonSchema: schema });
      expect(typeof (JSON.parse(j.text) as { bread: unknown }).bread).toBe('string');
      expect(server.requests.at(-1)?.response_format?.type).toBe('json_schema');
      await remote.close();
    } finally {
      await server.close();
    }
  }, SLOW);
});
