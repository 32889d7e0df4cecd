// Browser-mode access rules. The server listens on 127.0.0.1 only, but any web page the user visits
// can still reach 127.0.0.1: the token (unguessable, per run) and the Host/Origin checks (against DNS
// rebinding) are what keep other pages out.
//
// Three secrets, each with one job:
// - the API token guards every call and the event socket; it travels only in a header or the socket's
//   query, never in a cookie (cookies ignore ports: every other service on 127.0.0.1 would receive it);
// - the open code is what the printed URL carries: it is redeemed once for the page (which receives the
//   API token inside the served HTML), so the URL left in the browser's history opens nothing;
// - the page key, in a per-port HttpOnly cookie, only lets the page's own files load (the built UI, no
//   data): if it leaks to another port's service, nothing can be called with it.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Per port: two Loci servers (or a Loci server and anything else) do not overwrite each other's. */
export const pageCookieName = (port: number) => `loci_page_${port}`;

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokensEqual(a: string | null | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return null;
}

/**
 * One-time codes for the URL that opens the UI. Each code opens the page `uses` times (1 unless a test
 * opens several browser contexts from one printed URL), then is forgotten.
 */
export class OpenCodes {
  private readonly left = new Map<string, number>();
  constructor(private readonly uses = 1) {}

  mint(): string {
    const code = newToken();
    this.left.set(code, this.uses);
    return code;
  }

  /** True (and one use spent) when `code` is live. */
  redeem(code: string | null): boolean {
    if (!code) return false;
    for (const [live, n] of this.left) {
      if (!tokensEqual(code, live)) continue;
      if (n <= 1) this.left.delete(live);
      else this.left.set(live, n - 1);
      return true;
    }
    return false;
  }
}

/** Host header must name this server by loopback address, so a rebinding DNS name is refused. */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** A browser sends Origin on WebSocket upgrades and POSTs; when present it must be us. */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

/** The served page learns the API token from this meta tag (the page script reads it once). */
export const TOKEN_META = 'loci-token';

export function withTokenMeta(html: Buffer, token: string): Buffer {
  const text = html.toString('utf8');
  const meta = `<meta name="${TOKEN_META}" content="${token}">`;
  const at = text.search(/<head[^>]*>/i);
  if (at < 0) return Buffer.from(meta + text);
  const end = text.indexOf('>', at) + 1;
  return Buffer.from(text.slice(0, end) + meta + text.slice(end));
}

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');
