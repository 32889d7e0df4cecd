import http from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDispatcher } from '../../main/contract/dispatcher.js';
import { NotFoundError } from '../../main/engine/errors.js';
import { MAX_BODY, startServer, type RunningServer } from '../../main/server/server.js';

// The server is tested with the real dispatcher over two in-test handlers: the subject here is the
// transport's access control, not the engine (test/server/browser-mode.test.ts runs the real engine).
let server: RunningServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'loci-static-'));
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Loci</title>');
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(os.tmpdir(), 'loci-secret.txt'), 'secret');
  const dispatcher = createDispatcher({
    'library.roots': () => ['/notes'],
    'host.info': () => ({ host: 'browser', canPickFolder: false, version: 't' }),
    'chats.get': ({ id }) => {
      throw new NotFoundError(`No chat ${id}.`);
    },
    'notes.text': () => {
      throw new Error('disk on fire');
    },
  });
  server = await startServer({ dispatcher, staticDir });
});
afterAll(() => server.close());

interface Res { status: number; headers: http.IncomingHttpHeaders; body: string }
function request(p: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: p, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const callApi = (name: string, body: unknown, headers: Record<string, string> = { 'x-loci-token': server.token }) =>
  request(`/api/call/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('browser-mode token', () => {
  it('listens on loopback with a fresh random token per run', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
    const other = await startServer({ dispatcher: createDispatcher({}), staticDir });
    expect(other.token).not.toBe(server.token);
    await other.close();
  });

  it('refuses calls without the token or with a wrong one', async () => {
    expect((await callApi('library.roots', {}, {})).status).toBe(401);
    expect((await callApi('library.roots', {}, { 'x-loci-token': server.token.slice(1) + 'x' })).status).toBe(401);
    const ok = await callApi('library.roots', {});
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ ok: true, result: ['/notes'] });
  });

  it('does not accept a cookie for calls (no CSRF by cookie)', async () => {
    const r = await callApi('library.roots', {}, { cookie: `loci_token=${server.token}` });
    expect(r.status).toBe(401);
  });

  it('answers a bad payload with 400 naming the call and field', async () => {
    const r = await callApi('library.roots', { x: 1 });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.message).toMatch(/"library.roots": invalid request — \(root\).*x/);
    const notJson = await request('/api/call/library.roots', { method: 'POST', headers: { 'x-loci-token': server.token }, body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('serves the UI only with a live one-time code, then by a per-port page cookie that cannot call the API', async () => {
    expect((await request('/')).status).toBe(401);
    expect((await request('/assets/app.js')).status).toBe(401);
    const code = new URL(server.openUrl).searchParams.get('token')!;
    expect(code).not.toBe(server.token);
    const page = await request(`/?token=${code}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // The page that spent the code learns the API token from its own HTML.
    expect(page.body).toContain(`<meta name="loci-token" content="${server.token}">`);
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^loci_page_${server.port}=.*HttpOnly; SameSite=Strict`));
    expect(cookie).not.toContain(server.token);
    const pageCookie = cookie.split(';')[0]!;
    const asset = await request('/assets/app.js', { headers: { cookie: pageCookie } });
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    // A reload by cookie gets the page but not the token; the cookie alone cannot call.
    const reload = await request('/', { headers: { cookie: pageCookie } });
    expect(reload.status).toBe(200);
    expect(reload.body).not.toContain(server.token);
    expect((await callApi('library.roots', {}, { cookie: pageCookie })).status).toBe(401);
  });

  // Probe 11: the token URL stayed in the browser history and opened the app from there again.
  it('spends the printed code on first use: the same URL from the history opens nothing', async () => {
    const url = new URL(server.newOpenUrl());
    expect((await request(url.pathname + url.search)).status).toBe(200);
    const again = await request(url.pathname + url.search);
    expect(again.status).toBe(401);
    expect(again.body).not.toContain(server.token);
    // The API token itself never opens the page (it is not a URL credential any more).
    expect((await request(`/?token=${server.token}`)).status).toBe(401);
  });

  it('never serves files outside the renderer directory', async () => {
    const r = await request(`/..%2Floci-secret.txt?token=${new URL(server.newOpenUrl()).searchParams.get('token')}`);
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('secret');
  });

  it('refuses foreign Host and Origin headers (DNS rebinding, other sites)', async () => {
    expect((await callApi('library.roots', {}, { 'x-loci-token': server.token, host: 'evil.example:80' })).status).toBe(403);
    expect((await callApi('library.roots', {}, { 'x-loci-token': server.token, origin: 'https://evil.example' })).status).toBe(403);
  });

  it('accepts the event socket only with the token, and delivers events', async () => {
    const base = `ws://127.0.0.1:${server.port}/api/events`;
    const denied = await new Promise<string>((resolve) => {
      const ws = new WebSocket(base);
      ws.on('error', (e) => resolve(e.message));
      ws.on('open', () => resolve('opened'));
    });
    expect(denied).toMatch(/401/);
    const ws = new WebSocket(`${base}?token=${server.token}`);
    await new Promise((r) => ws.on('open', r));
    const got = new Promise<string>((r) => ws.on('message', (m) => r(String(m))));
    server.broadcast('answer.token', { streamId: 's', token: 'hi' });
    expect(JSON.parse(await got)).toEqual({ event: 'answer.token', payload: { streamId: 's', token: 'hi' } });
    ws.close();
  });

  // Probe 7: a body over 1 MB got a connection reset.
  it('answers a body over 1 MB with a clean 413, and keeps serving', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(MAX_BODY + 10) });
    const r = await request('/api/call/library.roots', { method: 'POST', headers: { 'x-loci-token': server.token, 'content-type': 'application/json' }, body: big });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error.message).toMatch(/over 1048576 bytes/);
    // Sent in chunks with no declared length, the same.
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, path: '/api/call/library.roots', method: 'POST', headers: { 'x-loci-token': server.token } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 5; i++) req.write('x'.repeat(300_000));
      req.end();
    });
    expect(chunked).toBe(413);
    expect((await callApi('library.roots', {})).status).toBe(200);
  });

  // Probe 8: client mistakes were answered as 500.
  it('answers a bad %-escape in the call name with 400, a missing chat with 404, and only engine faults with 500', async () => {
    const bad = await request('/api/call/library.%E0%A4%A', { method: 'POST', headers: { 'x-loci-token': server.token }, body: '{}' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toMatch(/not valid percent-encoding/);
    const missing = await callApi('chats.get', { id: 999 });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error).toMatchObject({ kind: 'engine', code: 'not_found', message: 'loci call "chats.get" failed: No chat 999.' });
    expect((await callApi('notes.text', { docPath: 'a.md' })).status).toBe(500);
  });
});

// Probe 10: a relative or trailing-slash --static served nothing (503 on every page).
describe('static directory spelling', () => {
  it.each([
    ['relative', (dir: string) => path.relative(process.cwd(), dir)],
    ['trailing slash', (dir: string) => `${dir}/`],
    ['relative with trailing slash', (dir: string) => `${path.relative(process.cwd(), dir)}/`],
  ])('serves the UI from a %s path', async (_label, spell) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-static-spell-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><head></head><title>Spelt</title>');
    writeFileSync(path.join(dir, 'assets', 'a.js'), 'ok()');
    const s = await startServer({ dispatcher: createDispatcher({}), staticDir: spell(dir) });
    try {
      const url = new URL(s.openUrl);
      const page = await new Promise<{ status: number; body: string; cookie: string }>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: s.port, path: url.pathname + url.search }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, cookie: String(res.headers['set-cookie']).split(';')[0]! }));
        }).on('error', reject);
      });
      expect(page.status).toBe(200);
      expect(page.body).toContain('Spelt');
      const asset = await new Promise<number>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: s.port, path: '/assets/a.js', headers: { cookie: page.cookie } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject);
      });
      expect(asset).toBe(200);
    } finally {
      await s.close();
    }
  });
});
