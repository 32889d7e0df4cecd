// Browser mode: the contract over HTTP (calls) and one WebSocket (events) on 127.0.0.1, serving the
// built renderer. Every request and socket must carry the per-run token.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Dispatcher } from '../contract/dispatcher.js';
import path from 'node:path';
import { httpStatus, type WireResult } from '../contract/errors.js';
import { CALL_PREFIX, EVENTS_PATH, TOKEN_HEADER } from '../contract/transports/http.js';
import { CSP, OpenCodes, hostAllowed, newToken, originAllowed, pageCookieName, readCookie, tokensEqual, withTokenMeta } from './security.js';
import { readStatic } from './static-files.js';
import { getLogger } from '../engine/log.js';

export const MAX_BODY = 1 << 20;
/** A body over MAX_BODY is read and dropped up to this size (so the client gets its 413), then cut. */
const MAX_DRAIN = 64 << 20;

export interface ServerOptions {
  dispatcher: Dispatcher;
  /** Directory of the built renderer (index.html + assets). */
  staticDir: string;
  port?: number;
  /** Fixed only by tests; otherwise random per run. */
  token?: string;
  /** How many times one printed URL opens the page (default 1: the URL in the browser history is dead). */
  openUrlUses?: number;
}

export interface RunningServer {
  url: string;
  /** The URL to open: carries a one-time code (not the API token), spent when the page loads. */
  openUrl: string;
  /** A fresh one-time URL (the first one was used, or another browser needs one). */
  newOpenUrl(): string;
  token: string;
  port: number;
  /** Sends an event to every connected page. */
  broadcast(event: string, payload: unknown): void;
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const token = opts.token ?? newToken();
  const pageKey = newToken();
  const codes = new OpenCodes(opts.openUrlUses ?? 1);
  // Relative or trailing-slash paths would never match the resolved file paths (every page a 503).
  const staticDir = path.resolve(opts.staticDir);
  const sockets = new Set<WebSocket>();
  let port = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (err instanceof BodyTooLarge) {
        if (!res.headersSent) {
          res.setHeader('connection', 'close');
          deny(res, 413, `request body over ${MAX_BODY} bytes`);
        }
        return;
      }
      getLogger('server').error({ err, url: req.url }, 'request failed');
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
      let name: string;
      try {
        name = decodeURIComponent(url.pathname.slice(CALL_PREFIX.length));
      } catch {
        return deny(res, 400, `bad call name: ${JSON.stringify(url.pathname.slice(CALL_PREFIX.length))} is not valid percent-encoding`);
      }
      const text = await readBody(req);
      let body: unknown;
      try {
        body = JSON.parse(text || '{}');
      } catch (err) {
        return send(res, 400, { ok: false, error: { kind: 'contract', call: name, message: `loci call "${name}": body is not JSON (${(err as Error).message})` } });
      }
      const result = await opts.dispatcher.dispatch(name, body);
      const status = result.ok ? 200 : httpStatus(result.error);
      if (status >= 500 && !result.ok) getLogger('server').error({ call: name, error: result.error }, 'call failed');
      return send(res, status, result);
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'method not allowed');
    // The printed URL's code is spent here; the page cookie (no API power) then lets the assets load.
    const viaCode = req.method === 'GET' && codes.redeem(url.searchParams.get('token'));
    if (!viaCode && !tokensEqual(readCookie(req, pageCookieName(port)), pageKey)) {
      return deny(res, 401, 'Open Loci with the URL printed by `loci serve` (each printed URL opens the page once; press Enter there for a new one).');
    }
    if (viaCode) res.setHeader('set-cookie', `${pageCookieName(port)}=${pageKey}; HttpOnly; SameSite=Strict; Path=/`);
    const file = await readStatic(staticDir, url.pathname);
    if (!file) {
      if (url.pathname === '/' || url.pathname === '/index.html') {
        return deny(res, 503, `The UI is not built (${staticDir} has no index.html). Run \`npm run build\`.`);
      }
      return deny(res, 404, 'not found');
    }
    // Only the page opened by a live code learns the API token (from the HTML, which is never cached).
    const body = viaCode && file.type.startsWith('text/html') ? withTokenMeta(file.body, token) : file.body;
    res.writeHead(200, {
      'content-type': file.type,
      'content-security-policy': CSP,
      'cache-control': file.type.startsWith('text/html') ? 'no-store' : 'max-age=3600',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
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
  getLogger('server').info({ url, staticDir }, 'browser mode listening');

  const newOpenUrl = () => `${url}/?token=${codes.mint()}`;
  return {
    url,
    openUrl: newOpenUrl(),
    newOpenUrl,
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

class BodyTooLarge extends Error {}

/**
 * Reads a body of at most MAX_BODY bytes. A larger one is read to its end and dropped, so the client,
 * still sending, receives a clean 413 instead of a connection reset; past MAX_DRAIN the socket is cut.
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_DRAIN) {
      reject(new BodyTooLarge());
      return;
    }
    let size = 0;
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) parts.push(c);
      else if (size > MAX_DRAIN) req.destroy();
    });
    req.on('end', () => (size > MAX_BODY ? reject(new BodyTooLarge()) : resolve(Buffer.concat(parts).toString('utf8'))));
    req.on('error', reject);
  });
}
