// A stand-in for the `electron` module, for tests of main/app/main.ts: the Electron binary cannot run
// on the build machines, so these tests MOCK ELECTRON (and nothing else). Each utilityProcess.fork
// records a child the test can make exit; windows record their webContents.send calls.
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';

export interface MockChild extends EventEmitter {
  posted: unknown[];
  entry: string;
  env: Record<string, string>;
  kill: ReturnType<typeof vi.fn>;
}

export function createElectronMock(opts: { lock: boolean }) {
  const appRoot = mkdtempSync(path.join(os.tmpdir(), 'loci-shell-'));
  const app = Object.assign(new EventEmitter(), {
    getAppPath: () => appRoot,
    getPath: () => appRoot,
    getVersion: () => '9.9.9',
    isPackaged: false,
    requestSingleInstanceLock: vi.fn(() => opts.lock),
    whenReady: vi.fn(() => Promise.resolve()),
    quit: vi.fn(),
  });
  const windows: { options: unknown; send: ReturnType<typeof vi.fn> }[] = [];
  class BrowserWindow extends EventEmitter {
    webContents = { send: vi.fn() };
    constructor(options: unknown) {
      super();
      windows.push({ options, send: this.webContents.send });
    }
    loadURL() {
      return Promise.resolve();
    }
    show() {}
    static getAllWindows = () => windows;
  }
  const children: MockChild[] = [];
  const utilityProcess = {
    fork: vi.fn((entry: string, _args: string[], o: { env: Record<string, string> }) => {
      const child = Object.assign(new EventEmitter(), {
        posted: [] as unknown[],
        entry,
        env: o.env,
        postMessage(m: { type: string }) {
          child.posted.push(m);
          if (m.type === 'shutdown') setTimeout(() => child.emit('exit', 0), 5);
        },
        kill: vi.fn(),
      });
      children.push(child);
      return child;
    }),
  };
  const dialog = { showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] })), showErrorBox: vi.fn() };
  const module = {
    app,
    BrowserWindow,
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: vi.fn() },
    dialog,
    ipcMain: { handle: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
    shell: { openExternal: vi.fn(() => Promise.resolve()) },
    utilityProcess,
  };
  return { appRoot, app, windows, children, dialog, utilityProcess, module };
}
