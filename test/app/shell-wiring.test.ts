import { EventEmitter } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultDbPath } from '../../main/engine/paths.js';

// The Electron binary cannot run here, so this test MOCKS THE `electron` MODULE (and nothing else) to
// check that main/app/main.ts wires the security rules, the IPC transport, the engine utilityProcess
// and the safe quit. The rules themselves are tested in security.test.ts.
const h = vi.hoisted(() => {
  /* eslint-disable @typescript-eslint/no-require-imports -- vi.hoisted runs before the file's imports exist */
  const { EventEmitter } = require('node:events') as typeof import('node:events');
  const appRoot = (require('node:fs') as typeof import('node:fs')).mkdtempSync(
    (require('node:path') as typeof import('node:path')).join((require('node:os') as typeof import('node:os')).tmpdir(), 'loci-shell-'),
  );
  /* eslint-enable @typescript-eslint/no-require-imports */
  const app = Object.assign(new EventEmitter(), {
    getAppPath: () => appRoot,
    getPath: () => appRoot,
    getVersion: () => '9.9.9',
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    quit: vi.fn(),
  });
  const windows: { options: unknown; url?: string }[] = [];
  class BrowserWindow extends EventEmitter {
    webContents = { send: vi.fn() };
    constructor(options: unknown) {
      super();
      windows.push({ options });
    }
    loadURL(url: string) {
      windows[windows.length - 1]!.url = url;
      return Promise.resolve();
    }
    static getAllWindows = () => windows;
  }
  const ipcHandlers = new Map<string, (...a: unknown[]) => unknown>();
  const children: (InstanceType<typeof EventEmitter> & { posted: unknown[]; entry: string; env: Record<string, string> })[] = [];
  const utilityProcess = {
    fork: (entry: string, _args: string[], opts: { env: Record<string, string> }) => {
      const child = Object.assign(new EventEmitter(), {
        posted: [] as unknown[],
        entry,
        env: opts.env,
        postMessage(m: { type: string; id?: number }) {
          child.posted.push(m);
          if (m.type === 'shutdown') setTimeout(() => child.emit('exit', 0), 5);
          if (m.type === 'call') setTimeout(() => child.emit('message', { type: 'result', id: m.id, result: { ok: true, result: ['/notes'] } }), 1);
        },
        kill: vi.fn(),
      });
      children.push(child);
      return child;
    },
  };
  return {
    appRoot,
    app,
    windows,
    ipcHandlers,
    children,
    BrowserWindow,
    utilityProcess,
    protocolHandlers: new Map<string, (r: { url: string }) => Promise<Response>>(),
    session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
    shell: { openExternal: vi.fn(() => Promise.resolve()) },
  };
});

vi.mock('electron', () => ({
  app: h.app,
  BrowserWindow: h.BrowserWindow,
  Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: vi.fn() },
  dialog: { showOpenDialog: vi.fn(async () => ({ canceled: false, filePaths: ['/picked'] })), showErrorBox: vi.fn() },
  ipcMain: { handle: (ch: string, fn: (...a: unknown[]) => unknown) => h.ipcHandlers.set(ch, fn) },
  protocol: { registerSchemesAsPrivileged: vi.fn(), handle: (s: string, fn: (r: { url: string }) => Promise<Response>) => h.protocolHandlers.set(s, fn) },
  session: h.session,
  shell: h.shell,
  utilityProcess: h.utilityProcess,
}));

beforeAll(async () => {
  mkdirSync(path.join(h.appRoot, 'out', 'renderer'), { recursive: true });
  writeFileSync(path.join(h.appRoot, 'out', 'renderer', 'index.html'), '<!doctype html><title>Loci</title>');
  await import('../../main/app/main.js');
  await new Promise((r) => setTimeout(r, 10));
});

const call = (url: string, name: string, req: unknown) => h.ipcHandlers.get('loci:call')!({ senderFrame: { url } }, name, req) as Promise<{ ok: boolean; error?: { message: string }; result?: unknown }>;

describe('Electron shell wiring (electron mocked)', () => {
  it('opens one sandboxed window on the app protocol', () => {
    expect(h.windows).toHaveLength(1);
    const prefs = (h.windows[0]!.options as { webPreferences: Record<string, unknown> }).webPreferences;
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(prefs.preload).toBe(path.join(h.appRoot, 'out', 'preload', 'preload.cjs'));
    expect(h.windows[0]!.url).toBe('app://loci/index.html');
    expect(h.session.defaultSession.setPermissionRequestHandler).toHaveBeenCalled();
    expect(h.session.defaultSession.setPermissionCheckHandler).toHaveBeenCalled();
  });

  it('hosts the engine in a utilityProcess, not the window', () => {
    expect(h.children).toHaveLength(1);
    // The bundle from main/app/build.mjs: no TypeScript loader in the shipped app.
    expect(h.children[0]!.entry).toBe(path.join(h.appRoot, 'out', 'engine', 'engine-process.js'));
    // The desktop app shares the CLI's and browser mode's index by default.
    expect(h.children[0]!.env.LOCI_DB).toBe(defaultDbPath());
  });

  it('serves the UI with the strict CSP', async () => {
    const res = await h.protocolHandlers.get('app')!({ url: 'app://loci/index.html' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await h.protocolHandlers.get('app')!({ url: 'app://loci/..%2F..%2Fetc%2Fpasswd' })).status).toBe(404);
  });

  it('blocks navigation and new windows in every web contents', () => {
    const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() });
    h.app.emit('web-contents-created', {}, contents);
    const prevent = vi.fn();
    contents.emit('will-navigate', { preventDefault: prevent }, 'https://example.org/page');
    contents.emit('will-navigate', { preventDefault: prevent }, 'file:///etc/passwd');
    expect(prevent).toHaveBeenCalledTimes(2);
    expect(h.shell.openExternal).toHaveBeenCalledWith('https://example.org/page');
    expect(h.shell.openExternal).toHaveBeenCalledTimes(1);
    const open = contents.setWindowOpenHandler.mock.calls[0]![0] as (d: { url: string }) => unknown;
    expect(open({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    const attach = vi.fn();
    contents.emit('will-attach-webview', { preventDefault: attach });
    expect(attach).toHaveBeenCalled();
  });

  it('answers IPC only from the app frame, validates, and forwards engine calls', async () => {
    expect((await call('https://evil.example/', 'host.info', {})).ok).toBe(false);
    expect(await call('app://loci/index.html', 'host.info', {})).toEqual({ ok: true, result: { host: 'electron', canPickFolder: true, version: '9.9.9' } });
    const bad = await call('app://loci/index.html', 'notes.text', { docPath: 5 });
    expect(bad.error?.message).toMatch(/"notes.text": invalid request — docPath/);
    expect(await call('app://loci/index.html', 'library.roots', {})).toEqual({ ok: true, result: ['/notes'] });
    expect(h.children[0]!.posted).toContainEqual({ type: 'call', id: 1, name: 'library.roots', request: {} });
  });

  it('quits only after the engine process has closed the index', async () => {
    const prevent = vi.fn();
    h.app.emit('before-quit', { preventDefault: prevent });
    expect(prevent).toHaveBeenCalled();
    expect(h.children[0]!.posted).toContainEqual({ type: 'shutdown' });
    expect(h.app.quit).not.toHaveBeenCalled();
    await new Promise((r) => setTimeout(r, 30));
    expect(h.app.quit).toHaveBeenCalled();
  });
});
