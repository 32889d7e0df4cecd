// Browser mode: the contract over HTTP (calls) and one WebSocket (events) on 127.0.0.1, serving the
// built renderer. Every request and socket must carry the per-run token.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Dispatcher } from '../contract/dispatcher.js';
import type { WireResult } from '../contract/errors.js';
import { CALL_PREFIX, EVENTS_PATH, TOKEN_HEADER } from '../contract/transports/http.js';
import { CSP, TOKEN_COOKIE, cookieToken, hostAllowed, newToken, originAllowed, tokensEqual } from './security.js';
import { readStatic } from './static-files.js';

const MAX_BODY = 1 << 20;

export interface ServerOptions {
  dispatcher: Dispatcher;
  /** Directory of the built renderer (index.html + assets). */
  staticDir: string;
  port?: number;
  /** Fixed only by tests; otherwise random per run. */
  token?: string;
}

export interface RunningServer {
  url: string;
  /** The URL to open: carries the token once; the page moves it to sessionStorage. */
  openUrl: string;
  token: string;
  port: number;
  /** Sends an event to every connected page. */
  broadcast(event: string, payload: unknown): void;
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const token = opts.token ?? newToken();
  const sockets = new Set<WebSocket>();
  let port = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, { ok: false, error: { kind: 'transport', message: String(err) } });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    if (!hostAllowed(req, port) || !originAllowed(req, port)) return deny(res, 403, 'forbidden host or origin');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);

    if (url.pathname.startsWith(CALL_PREFIX)) {
      if (req.method !== 'POST') return deny(res, 405, 'calls are POST');
      if (!tokensEqual(header(req, TOKEN_HEADER), token)) return deny(res, 401, 'missing or wrong token');
      const name = decodeURIComponent(url.pathname.slice(CALL_PREFIX.length));
      let body: unknown;
      try {
        body = JSON.parse((await readBody(req)) || '{}');
      } catch (err) {
        return send(res, 400, { ok: false, error: { kind: 'contract', call: name, message: `loci call "${name}": body is not JSON (${(err as Error).message})` } });
      }
      const result = await opts.dispatcher.dispatch(name, body);
      return send(res, result.ok ? 200 : result.error.kind === 'contract' ? 400 : 500, result);
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'method not allowed');
    const queryToken = url.searchParams.get('token');
    const viaQuery = tokensEqual(queryToken, token);
    if (!viaQuery && !tokensEqual(cookieToken(req), token)) {
      return deny(res, 401, 'Open Loci with the URL printed by `loci serve` (it carries the access token).');
    }
    // The cookie lets the page's own assets load; API calls still need the header (no CSRF by cookie).
    if (viaQuery) res.setHeader('set-cookie', `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    const file = await readStatic(opts.staticDir, url.pathname);
    if (!file) {
      if (url.pathname === '/' || url.pathname === '/index.html') {
        return deny(res, 503, `The UI is not built (${opts.staticDir} has no index.html). Run \`npm run build\`.`);
      }
      return deny(res, 404, 'not found');
    }
    res.writeHead(200, {
      'content-type': file.type,
      'content-security-policy': CSP,
      'cache-control': file.type.startsWith('text/html') ? 'no-store' : 'max-age=3600',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const ok =
      url.pathname === EVENTS_PATH &&
      hostAllowed(req, port) &&
      originAllowed(req, port) &&
      tokensEqual(url.searchParams.get('token'), token);
    if (!ok) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      // Pages only listen; anything they send on the event socket is ignored.
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openUrl: `${url}/?token=${token}`,
    token,
    port,
    broadcast(event, payload) {
      const frame = JSON.stringify({ event, payload });
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

function send(res: ServerResponse, status: number, body: WireResult): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function deny(res: ServerResponse, status: number, message: string): void {
  send(res, status, { ok: false, error: { kind: 'transport', message } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
