// Browser-mode transport: calls are POST /api/call/<name>, events arrive on one WebSocket at
// /api/events. The per-run token rides in a header (calls) and the socket's query string.
import type { CallName } from '../contract.js';
import type { Transport } from '../client.js';
import type { WireResult } from '../errors.js';

export const TOKEN_HEADER = 'x-loci-token';
export const CALL_PREFIX = '/api/call/';
export const EVENTS_PATH = '/api/events';

export interface HttpTransportOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  WebSocket?: typeof WebSocket;
  /** Called when the event socket drops or comes back, so the UI can say so. */
  onConnection?: (connected: boolean) => void;
}

export function httpTransport(opts: HttpTransportOptions): Transport {
  const doFetch = opts.fetch ?? fetch;
  const WS = opts.WebSocket ?? WebSocket;
  const base = opts.baseUrl.replace(/\/$/, '');

  return {
    async invoke(name: CallName, request: unknown): Promise<WireResult> {
      let res: Response;
      try {
        res = await doFetch(`${base}${CALL_PREFIX}${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: opts.token },
          body: JSON.stringify(request ?? {}),
        });
      } catch (err) {
        return { ok: false, error: { kind: 'transport', call: name, message: `cannot reach the Loci server: ${(err as Error).message}` } };
      }
      const body = (await res.json().catch(() => null)) as WireResult | null;
      if (body && typeof body === 'object' && 'ok' in body) return body;
      return { ok: false, error: { kind: 'transport', call: name, message: `Loci server answered HTTP ${res.status}` } };
    },

    subscribe(listener) {
      let socket: WebSocket | null = null;
      let closed = false;
      let delay = 250;
      const wsUrl = `${base.replace(/^http/, 'ws')}${EVENTS_PATH}?token=${encodeURIComponent(opts.token)}`;
      const connect = () => {
        socket = new WS(wsUrl);
        socket.onopen = () => {
          delay = 250;
          opts.onConnection?.(true);
        };
        socket.onmessage = (msg) => {
          try {
            const { event, payload } = JSON.parse(String(msg.data)) as { event: string; payload: unknown };
            listener(event, payload);
          } catch {
            // A frame that is not JSON is not ours; ignore it.
          }
        };
        // A failed connection also fires close, which schedules the retry.
        socket.onerror = () => {};
        socket.onclose = () => {
          opts.onConnection?.(false);
          if (closed) return;
          setTimeout(connect, delay);
          delay = Math.min(delay * 2, 5000);
        };
      };
      connect();
      return () => {
        closed = true;
        socket?.close();
      };
    },
  };
}
