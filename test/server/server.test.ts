import http from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDispatcher } from '../../main/contract/dispatcher.js';
import { startServer, type RunningServer } from '../../main/server/server.js';

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
  const dispatcher = createDispatcher({ 'library.roots': () => ['/notes'], 'host.info': () => ({ host: 'browser', canPickFolder: false, version: 't' }) });
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

  it('does not accept the cookie alone for calls (no CSRF by cookie)', async () => {
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

  it('serves the UI only with the token, then by the HttpOnly cookie it sets', async () => {
    expect((await request('/')).status).toBe(401);
    expect((await request('/assets/app.js')).status).toBe(401);
    const page = await request(`/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toMatch(/loci_token=.*HttpOnly; SameSite=Strict/);
    const asset = await request('/assets/app.js', { headers: { cookie: cookie.split(';')[0]! } });
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log(1)');
  });

  it('never serves files outside the renderer directory', async () => {
    const r = await request(`/..%2Floci-secret.txt?token=${server.token}`);
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
});
