// The Electron security checklist as plain data and functions, so tests can check every rule without
// an Electron binary: window preferences, CSP, navigation, new windows, permissions, IPC senders and
// the app:// protocol's file resolution.
import path from 'node:path';
import type { BrowserWindowConstructorOptions, HandlerDetails, WindowOpenHandlerResponse } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'loci';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** The renderer talks to nothing but its own origin; the contract goes over IPC, not the network. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 880,
    minWidth: 860,
    minHeight: 560,
    show: false,
    title: 'Loci',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  };
}

export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Only http(s) leaves the app, and only to the system browser. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.length > 0 && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** will-navigate: the window never leaves the app; a link to the web opens in the browser instead. */
export function navigationDecision(url: string): { allow: false; openExternal: boolean } | { allow: true } {
  if (isAppUrl(url)) return { allow: true };
  return { allow: false, openExternal: isSafeExternalUrl(url) };
}

/** setWindowOpenHandler: no new windows, ever; http(s) targets go to the system browser. */
export function windowOpenHandler(openExternal: (url: string) => void): (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse {
  return ({ url }) => {
    if (isSafeExternalUrl(url)) openExternal(url);
    return { action: 'deny' };
  };
}

/** The app needs no camera, microphone, notifications, geolocation…: every permission is refused. */
export function permissionRequestHandler(_wc: unknown, _permission: string, callback: (granted: boolean) => void): void {
  callback(false);
}
export function permissionCheckHandler(): boolean {
  return false;
}

/** IPC is answered only for frames showing the app itself (not an injected or navigated frame). */
export function isTrustedSender(frameUrl: string | undefined | null): boolean {
  return typeof frameUrl === 'string' && isAppUrl(frameUrl);
}

/** app://loci/<path> → a file inside the built renderer, or null (traversal, other hosts). */
export function resolveAppAsset(rendererDir: string, requestUrl: string): string | null {
  if (!isAppUrl(requestUrl)) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(requestUrl).pathname);
  } catch {
    return null;
  }
  if (rel === '/' || rel === '') rel = '/index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, '.' + rel);
  return file.startsWith(root + path.sep) ? file : null;
}
