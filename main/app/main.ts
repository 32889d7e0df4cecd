// The Electron shell: one window, native menus, the folder picker, the app:// protocol serving the
// built UI, and the contract's IPC transport — forwarding engine calls to the engine process.
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BrowserWindow, Menu, app, dialog, ipcMain, protocol, session, shell } from 'electron';
import type { CallName } from '../contract/contract.js';
import { defaultDbPath } from '../engine/paths.js';
import { createDispatcher, validatedEmit } from '../contract/dispatcher.js';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../contract/transports/ipc.js';
import { getLogger, logDir } from '../engine/log.js';
import { startEngineHost, type EngineHost } from './engine-host.js';
import { menuTemplate } from './menu.js';
import { RestartPolicy } from './restart-policy.js';
import {
  APP_CSP,
  APP_INDEX_URL,
  APP_SCHEME,
  isSafeExternalUrl,
  isTrustedSender,
  mainWindowOptions,
  navigationDecision,
  permissionCheckHandler,
  permissionRequestHandler,
  resolveAppAsset,
  windowOpenHandler,
} from './security.js';

const appRoot = app.getAppPath();
const rendererDir = path.join(appRoot, 'out', 'renderer');
const preloadPath = path.join(appRoot, 'out', 'preload', 'preload.cjs');
// Bundled by main/app/build.mjs: plain JavaScript, no TypeScript loader at run time.
const engineEntry = path.join(appRoot, 'out', 'engine', 'engine-process.js');
// The same index as the CLI and `loci serve` use, unless told otherwise.
const dbPath = process.env.LOCI_DB ?? defaultDbPath();

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

const log = getLogger('shell');
// A second launch hands over to the first (which focuses its window) and ends here: nothing below is
// set up, so it opens no window and starts no engine on the same index.
const primary = app.requestSingleInstanceLock();
if (!primary) {
  log.info('another Loci instance holds the lock; quitting');
  app.quit();
}

let win: BrowserWindow | null = null;
let engine: EngineHost | null = null;
let quitting = false;
const restarts = new RestartPolicy();

const openExternal = (url: string) => {
  if (isSafeExternalUrl(url)) void shell.openExternal(url);
};
const emit = validatedEmit((event, payload) => win?.webContents.send(IPC_EVENT_CHANNEL, event, payload));

function engineEnv(): Record<string, string> {
  return {
    LOCI_DB: dbPath,
    LOCI_VERSION: app.getVersion(),
    // Packaged, the GloVe binary and the catalogue are extraResources beside app.asar.
    ...(app.isPackaged ? { LOCI_RESOURCES: process.resourcesPath } : {}),
    ...(process.env.LOCI_FOLDER ? { LOCI_FOLDER: process.env.LOCI_FOLDER } : {}),
  };
}

function startEngine(): void {
  log.info({ engineEntry, dbPath }, 'starting the engine process');
  engine = startEngineHost(engineEntry, engineEnv(), (code) => {
    if (quitting) return;
    engine = null;
    const decision = restarts.onCrash();
    log.error({ code, decision }, 'the engine process exited');
    if (decision.restart) {
      emit('engine.error', { source: 'engine', message: `The indexing engine stopped (code ${code}); restarting in ${(decision.delayMs / 1000).toFixed(1)} s. Your index is intact.` });
      setTimeout(() => {
        if (!quitting) startEngine();
      }, decision.delayMs);
    } else {
      const message = `The indexing engine keeps stopping (${decision.reason}; last exit code ${code}). Loci will not restart it. The log is in ${logDir()}.`;
      emit('engine.error', { source: 'engine', message });
      dialog.showErrorBox('Loci engine stopped', message);
    }
  });
  engine.transport.subscribe((event, payload) => win?.webContents.send(IPC_EVENT_CHANNEL, event, payload));
}

async function pickFolder(): Promise<string | null> {
  const options: Electron.OpenDialogOptions = { title: 'Add a notes folder', properties: ['openDirectory'] };
  const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
  return r.canceled ? null : (r.filePaths[0] ?? null);
}

// host.* are answered here; every other call is validated here and again in the engine process.
const dispatcher = createDispatcher(
  {
    'host.info': () => ({ host: 'electron', canPickFolder: true, version: app.getVersion() }),
    'host.pickFolder': pickFolder,
  },
  (name: CallName, request: unknown) =>
    engine ? engine.transport.invoke(name, request) : Promise.resolve({ ok: false, error: { kind: 'transport', call: name, message: 'the engine is not running' } }),
);

function createWindow(): void {
  win = new BrowserWindow(mainWindowOptions(preloadPath));
  win.once('ready-to-show', () => win?.show());
  win.on('closed', () => (win = null));
  void win.loadURL(APP_INDEX_URL);
}

app.on('web-contents-created', (_e, contents) => {
  contents.setWindowOpenHandler(windowOpenHandler(openExternal));
  contents.on('will-navigate', (event, url) => {
    const decision = navigationDecision(url);
    if (decision.allow) return;
    event.preventDefault();
    if (decision.openExternal) openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!navigationDecision(url).allow) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

if (primary) void app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler(permissionRequestHandler);
  session.defaultSession.setPermissionCheckHandler(permissionCheckHandler);
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppAsset(rendererDir, request.url);
    if (!file) return new Response('not found', { status: 404 });
    try {
      const body = await readFile(file);
      const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
      return new Response(body, { headers: { 'content-type': type, 'content-security-policy': APP_CSP } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });

  ipcMain.handle(IPC_CALL_CHANNEL, (event, name: unknown, request: unknown) => {
    if (!isTrustedSender(event.senderFrame?.url)) {
      return { ok: false, error: { kind: 'transport', message: 'IPC refused: the sender is not the Loci window' } };
    }
    return dispatcher.dispatch(name, request);
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        openFolder: async () => {
          const folder = await pickFolder();
          if (folder) void dispatcher.dispatch('library.index', { root: folder, watch: true });
        },
        showView: (view) => emit('ui.show', { view }),
        openExternal,
      }),
    ),
  );

  startEngine();
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('second-instance', () => {
  if (win?.isMinimized()) win.restore();
  win?.focus();
});

app.on('window-all-closed', () => {
  if (os.platform() !== 'darwin') app.quit();
});

// Quitting mid-index is safe: the engine process aborts the run (each note is one transaction) and
// closes the database before the app exits.
app.on('before-quit', (event) => {
  if (quitting || !engine) return;
  quitting = true;
  event.preventDefault();
  void engine.shutdown().finally(() => app.quit());
});
