import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../main/contract/client.js';
import { httpTransport } from '../../main/contract/transports/http.js';
import { LociEngine } from '../../main/engine/engine.js';
import { startBrowserMode } from '../../main/server/browser-mode.js';
import { tinyModelPath } from '../llm/helpers/tiny-model.js';

// What the UI sees when a model is set in Settings: the answer's tokens arrive as events over the
// WebSocket while the call is running, and the final answer is the model's, with valid citations.
// The real tiny GGUF writes nonsense, so only structure is checked.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'loci-gen-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a generated answer in browser mode', () => {
  it('streams tokens as answer.token events for its stream id, then returns the generated answer', async () => {
    const notes = path.join(tmp, 'notes');
    cpSync(path.resolve('test/fixtures/notes'), notes, { recursive: true });
    const engine = await LociEngine.open({ dbPath: path.join(tmp, 'index.db') });
    const mode = await startBrowserMode({ engine, staticDir: tmp, log: () => {} });
    const client = createClient(httpTransport({ baseUrl: mode.server.url, token: mode.server.token, WebSocket: WebSocket as never }));
    const tokens: { streamId: string; token: string }[] = [];
    client.on('answer.token', (p) => tokens.push(p));
    const phases = new Set<string>();
    client.on('index.progress', (p) => phases.add(p.progress.phase));
    try {
      await new Promise((r) => setTimeout(r, 100));
      await client.call('library.index', { root: notes, watch: false });
      await client.call('settings.update', { patch: { model: await tinyModelPath() } });
      const answer = await client.call('ask', { question: 'What does the nested headings note say?', streamId: 'gen-1', method: 'bm25' });
      await new Promise((r) => setTimeout(r, 200));
      expect(answer.mode).toBe('generated');
      expect(answer.model).toBe('stories260K');
      const mine = tokens.filter((t) => t.streamId === 'gen-1');
      // How many pieces the reply comes in depends on what the model writes (test/llm/loop-guard.test.ts
      // pins the granularity); what streams is the answer's text.
      expect(mine.length).toBeGreaterThan(0);
      const bare = (t: string) => t.replace(/\s+/g, '');
      expect(bare(mine.map((t) => t.token).join(''))).toBe(bare(answer.text));
      expect(answer.text.trim().length).toBeGreaterThan(0);
      for (const c of answer.citations) expect(answer.contexts[c.n - 1]?.docPath).toBe(c.docPath);
      // Choosing the model started the model pass over the notes already indexed.
      const started = Date.now();
      while (!phases.has('llm') && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
      expect(phases.has('llm')).toBe(true);
    } finally {
      client.close();
      // Closing mid model pass stops it between notes instead of waiting for it to finish.
      const closing = Date.now();
      await mode.close();
      expect(Date.now() - closing).toBeLessThan(15_000);
    }
  });
});
