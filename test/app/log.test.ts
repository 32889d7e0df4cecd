import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../main/contract/client.js';
import { httpTransport } from '../../main/contract/transports/http.js';
import { LociEngine } from '../../main/engine/engine.js';
import { getLogger, logDir, onEngineError, reportEngineError } from '../../main/engine/log.js';
import { startBrowserMode } from '../../main/server/browser-mode.js';

// The file log (pino + rotating-file-stream) in the folder LOCI_LOG_DIR names, and engine problems that
// reach the UI as engine.error events. Real engine, real server, real files.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'loci-log-'));
afterAll(() => undefined);

async function waitFor<T>(get: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('file log', () => {
  it('writes JSON lines into LOCI_LOG_DIR, one file per process name, rotating by size', async () => {
    expect(logDir()).toBe(process.env.LOCI_LOG_DIR);
    const log = getLogger(`unit-${process.pid}`);
    log.warn({ detail: 42 }, 'something to keep');
    const file = path.join(logDir(), `unit-${process.pid}.log`);
    const line = await waitFor(() => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').find((l) => l.includes('something to keep')) : undefined));
    expect(JSON.parse(line)).toMatchObject({ level: 40, name: `unit-${process.pid}`, msg: 'something to keep', detail: 42 });
  });

  it('a failed embedder switch reaches the page as an engine.error event and the log file', async () => {
    const engine = await LociEngine.open({ dbPath: path.join(tmp, 'index.db') });
    const mode = await startBrowserMode({ engine, staticDir: tmp, log: () => {} });
    const client = createClient(httpTransport({ baseUrl: mode.server.url, token: mode.server.token, WebSocket: WebSocket as never }));
    const problems: { source: string; message: string }[] = [];
    client.on('engine.error', (p) => problems.push(p));
    try {
      await new Promise((r) => setTimeout(r, 150));
      // A transformers folder that does not exist: accepted as a spec, fails while loading in the background.
      const missing = path.join(tmp, 'no-such-model-folder');
      const update = await client.call('settings.update', { patch: { embedder: `transformers:${missing}` } }).then(() => 'accepted', (e: Error) => e.message);
      console.log('[log test] settings.update:', update);
      if (update === 'accepted') {
        const embedder = await waitFor(() => problems.find((p) => p.source === 'embedder'), 30_000);
        expect(embedder.message).toContain(missing);
      }
      reportEngineError('model', new Error('the model could not be loaded: test'));
      const got = await waitFor(() => (problems.some((p) => p.source === 'model') ? problems : undefined));
      expect(got.find((p) => p.source === 'model')?.message).toBe('the model could not be loaded: test');
      const file = path.join(logDir(), 'engine.log');
      const logged = await waitFor(() => (existsSync(file) && readFileSync(file, 'utf8').includes('the model could not be loaded: test') ? true : undefined));
      expect(logged).toBe(true);
      expect(readdirSync(logDir())).toContain('server.log');
    } finally {
      client.close();
      await mode.close();
    }
  }, 60_000);

  it('with no host listening, a problem still goes to the log (and the console)', () => {
    const seen: string[] = [];
    const off = onEngineError((p) => seen.push(p.message));
    off();
    const p = reportEngineError('watch', 'plain string');
    expect(p).toEqual({ source: 'watch', message: 'plain string' });
    expect(seen).toEqual([]);
  });
});
