// The engine's process (Electron utilityProcess): opens the engine, answers the contract's calls from
// the main process, streams events back, and on 'shutdown' stops index runs and closes the database
// cleanly before exiting — so quitting mid-index never leaves a half-written note. Built into
// out/engine/engine-process.js (main/app/build.mjs); under plain Node (a child forked with an IPC
// channel, as the build test does) Node's IPC stands in for Electron's parentPort.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createDispatcher, validatedEmit } from '../contract/dispatcher.js';
import { composeHost } from '../host/compose.js';
import { servePort, type PortLike, type PortMessage } from '../contract/transports/message-port.js';
import { LociEngine } from '../engine/engine.js';
import { getLogger } from '../engine/log.js';

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

export type ControlMessage = { type: 'shutdown' };

function nodeIpcPort(): ParentPort | undefined {
  if (!process.send) return undefined;
  return {
    on: (_event, listener) => process.on('message', (data) => listener({ data })),
    postMessage: (message) => process.send?.(message),
  };
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort ?? nodeIpcPort();
if (!parentPort) throw new Error('engine-process must run as an Electron utilityProcess (or a Node child with an IPC channel)');

const log = getLogger('engine');
const dbPath = process.env.LOCI_DB;
if (!dbPath) throw new Error('engine-process needs LOCI_DB (the index file)');
mkdirSync(path.dirname(dbPath), { recursive: true });
log.info({ dbPath, node: process.versions.node, electron: process.versions.electron ?? null }, 'engine process starting');
let engine: LociEngine;
try {
  engine = await LociEngine.open({ dbPath });
} catch (err) {
  log.fatal({ err }, 'the engine could not open the index');
  throw err;
}

const port: PortLike = {
  postMessage: (m) => parentPort.postMessage(m),
  on: (_event, listener) => parentPort.on('message', (e) => listener(e.data as PortMessage)),
};
let send: (event: string, payload: unknown) => void = () => {};
const emit = validatedEmit((event, payload) => send(event, payload));
const host = composeHost({ engine, emit, host: { host: 'electron', canPickFolder: true, version: process.env.LOCI_VERSION ?? '0.0.0' } });
send = servePort(port, createDispatcher(host.handlers, undefined, (call, err) => log.error({ call, err }, 'call failed inside the engine')));
process.on('uncaughtException', (err) => {
  log.fatal({ err }, 'uncaught exception');
  process.exit(70);
});

parentPort.on('message', (e) => {
  if ((e.data as ControlMessage)?.type !== 'shutdown') return;
  void (async () => {
    log.info('shutdown requested');
    host.stop();
    await engine.close();
    log.flush();
    process.exit(0);
  })();
});

host.watchLibrary();
const first = process.env.LOCI_FOLDER;
// Failures reach the window as index.error events; nothing more to do with them here.
if (first) void Promise.resolve(host.handlers['library.index']({ root: path.resolve(first), watch: true })).catch(() => {});
parentPort.postMessage({ type: 'ready' });
