// Picks the transport: the Electron preload exposes `window.loci`; otherwise this is browser mode: the
// printed URL carries a one-time code (spent when the page loads, so the URL in the history opens
// nothing); the page that spent it receives the API token in a meta tag and keeps it in sessionStorage.
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
  const fromPage = document.querySelector<HTMLMetaElement>('meta[name="loci-token"]')?.content;
  if (fromPage) sessionStorage.setItem(TOKEN_KEY, fromPage);
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return { error: 'This page needs the access token. Open the URL that `loci serve` (or `npm start`) printed; each URL opens Loci once — press Enter in that terminal for a new one.' };
  return { client: createClient(httpTransport({ baseUrl: window.location.origin, token, onConnection })), mode: 'browser' };
}
