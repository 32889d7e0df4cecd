// Picks the transport: the Electron preload exposes `window.loci`; otherwise this is browser mode and
// the per-run token arrives once in the URL, then lives in sessionStorage (not in history or links).
import { createClient, type LociClient } from '../../../main/contract/client.js';
import { httpTransport } from '../../../main/contract/transports/http.js';

declare global {
  interface Window {
    loci?: LociClient;
  }
}

const TOKEN_KEY = 'loci.token';

export type Connection = { client: LociClient; mode: 'electron' | 'browser' } | { error: string };

export function connect(onConnection?: (connected: boolean) => void): Connection {
  if (window.loci) return { client: window.loci, mode: 'electron' };
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return { error: 'This page needs the access token. Open the URL that `loci serve` (or `npm start`) printed.' };
  return { client: createClient(httpTransport({ baseUrl: window.location.origin, token, onConnection })), mode: 'browser' };
}
