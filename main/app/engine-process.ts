// The engine's process (Electron utilityProcess): opens the engine, answers the contract's calls from
// the main process, streams events back, and on 'shutdown' stops index runs and closes the database
// cleanly before exiting — so quitting mid-index never leaves a half-written note.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createDispatcher, validatedEmit } from '../contract/dispatcher.js';
import { engineHandlers } from '../host/engine-handlers.js';
import { servePort, type PortLike, type PortMessage } from '../contract/transports/message-port.js';
import { LociEngine } from '../engine/engine.js';
import { modelHandlers } from '../server/models.js';

interface ParentPort {
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

export type ControlMessage = { type: 'shutdown' };

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!parentPort) throw new Error('engine-process must run as an Electron utilityProcess');

const dbPath = process.env.LOCI_DB!;
mkdirSync(path.dirname(dbPath), { recursive: true });
const engine = await LociEngine.open({ dbPath });

const port: PortLike = {
  postMessage: (m) => parentPort.postMessage(m),
  on: (_event, listener) => parentPort.on('message', (e) => listener(e.data as PortMessage)),
};
let send: (event: string, payload: unknown) => void = () => {};
const emit = validatedEmit((event, payload) => send(event, payload));
const models = modelHandlers(emit);
const host = engineHandlers(engine, emit, { host: 'electron', canPickFolder: true, version: process.env.LOCI_VERSION ?? '0.0.0' }, models);
send = servePort(port, createDispatcher(host.handlers));

parentPort.on('message', (e) => {
  if ((e.data as ControlMessage)?.type !== 'shutdown') return;
  void (async () => {
    models.stop();
    await host.stop();
    await engine.close();
    process.exit(0);
  })();
});

for (const root of engine.roots()) host.watch(root);
const first = process.env.LOCI_FOLDER;
// Failures reach the window as index.error events; nothing more to do with them here.
if (first) void Promise.resolve(host.handlers['library.index']({ root: path.resolve(first), watch: true })).catch(() => {});
parentPort.postMessage({ type: 'ready' });
