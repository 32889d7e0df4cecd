import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate } from '../../main/app/menu.js';
import {
  APP_CSP,
  APP_INDEX_URL,
  isSafeExternalUrl,
  isTrustedSender,
  mainWindowOptions,
  navigationDecision,
  permissionCheckHandler,
  permissionRequestHandler,
  resolveAppAsset,
  windowOpenHandler,
} from '../../main/app/security.js';

// The shell's security rules are plain functions (main/app/security.ts): tested here directly, no
// Electron needed. test/app/shell-wiring.test.ts checks that main.ts installs them (electron mocked).
describe('BrowserWindow options', () => {
  const prefs = mainWindowOptions('/app/out/preload/preload.cjs').webPreferences!;
  it('isolates and sandboxes the renderer without Node', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webviewTag).toBe(false);
  });
  it('keeps web security on', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
    expect(prefs.preload).toBe('/app/out/preload/preload.cjs');
  });
});

describe('Content-Security-Policy', () => {
  const directives = Object.fromEntries(APP_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
  it('allows only the app itself: no inline or eval script, no network, no objects or frames', () => {
    expect(directives['default-src']).toBe("'self'");
    expect(directives['script-src']).toBe("'self'");
    expect(APP_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(directives['connect-src']).toBe("'none'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-src']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
  });
});

describe('navigation and new windows', () => {
  it('stays inside the app', () => {
    expect(navigationDecision(APP_INDEX_URL)).toEqual({ allow: true });
    expect(navigationDecision('app://loci/assets/x.js')).toEqual({ allow: true });
    expect(navigationDecision('app://evil/index.html')).toEqual({ allow: false, openExternal: false });
    expect(navigationDecision('file:///etc/passwd')).toEqual({ allow: false, openExternal: false });
    expect(navigationDecision('https://example.org/')).toEqual({ allow: false, openExternal: true });
  });
  it('denies every new window and opens only http(s) externally', () => {
    const opened: string[] = [];
    const handler = windowOpenHandler((u) => opened.push(u));
    for (const url of ['https://example.org/a', 'http://localhost:3000/', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'app://loci/index.html', 'https://user:pw@example.org/']) {
      expect(handler({ url })).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual(['https://example.org/a', 'http://localhost:3000/']);
  });
  it('recognises safe external URLs', () => {
    expect(isSafeExternalUrl('https://x.org')).toBe(true);
    expect(isSafeExternalUrl('mailto:a@b.c')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
  });
});

describe('permissions and IPC senders', () => {
  it('refuses every permission request and check', () => {
    const cb = vi.fn();
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) permissionRequestHandler({}, p, cb);
    expect(cb.mock.calls.every(([granted]) => granted === false)).toBe(true);
    expect(cb).toHaveBeenCalledTimes(5);
    expect(permissionCheckHandler()).toBe(false);
  });
  it('answers IPC only from the app frame', () => {
    expect(isTrustedSender(APP_INDEX_URL)).toBe(true);
    expect(isTrustedSender('https://example.org/')).toBe(false);
    expect(isTrustedSender('file:///tmp/x.html')).toBe(false);
    expect(isTrustedSender(undefined)).toBe(false);
  });
});

describe('app:// protocol', () => {
  const dir = path.resolve('/srv/loci/out/renderer');
  it('maps app URLs into the renderer build only', () => {
    expect(resolveAppAsset(dir, 'app://loci/')).toBe(path.join(dir, 'index.html'));
    expect(resolveAppAsset(dir, 'app://loci/assets/a.js')).toBe(path.join(dir, 'assets/a.js'));
    expect(resolveAppAsset(dir, 'app://loci/..%2F..%2Fpackage.json')).toBeNull();
    expect(resolveAppAsset(dir, 'app://other/index.html')).toBeNull();
    expect(resolveAppAsset(dir, 'file:///etc/passwd')).toBeNull();
  });
});

describe('native menu', () => {
  it('offers the folder picker and every view with shortcuts', () => {
    const calls: string[] = [];
    const template = menuTemplate({ openFolder: () => calls.push('open'), showView: (v) => calls.push(v), openExternal: (u) => calls.push(u) }, 'linux');
    const file = template.find((m) => m.label === '&File')!.submenu as { label?: string; accelerator?: string; click?: () => void }[];
    file[0]!.click!();
    const view = template.find((m) => m.label === '&View')!.submenu as { label?: string; accelerator?: string; click?: () => void }[];
    view.filter((i) => i.accelerator?.startsWith('CmdOrCtrl+')).forEach((i) => i.click!());
    expect(calls).toEqual(['open', 'library', 'ask', 'mindmap', 'graph', 'settings']);
    expect(menuTemplate({ openFolder() {}, showView() {}, openExternal() {} }, 'darwin')[0]).toEqual({ role: 'appMenu' });
  });
});
