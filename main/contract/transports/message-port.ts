// Request/response over any postMessage endpoint (Electron's utilityProcess, a MessagePort, a Node
// worker): how the Electron main process talks to the engine process. Same WireResult as the others.
import type { CallName } from '../contract.js';
import type { Transport } from '../client.js';
import type { Dispatcher } from '../dispatcher.js';
import type { WireResult } from '../errors.js';

export type PortMessage =
  | { type: 'call'; id: number; name: string; request: unknown }
  | { type: 'result'; id: number; result: WireResult }
  | { type: 'event'; event: string; payload: unknown };

export interface PortLike {
  postMessage(message: PortMessage): void;
  on(event: 'message', listener: (message: PortMessage) => void): unknown;
}

/** The engine side: answers calls with the dispatcher; returns a sender for events. */
export function servePort(port: PortLike, dispatcher: Dispatcher): (event: string, payload: unknown) => void {
  port.on('message', (msg) => {
    if (msg?.type !== 'call') return;
    void dispatcher.dispatch(msg.name, msg.request).then((result) => port.postMessage({ type: 'result', id: msg.id, result }));
  });
  return (event, payload) => port.postMessage({ type: 'event', event, payload });
}

/** The caller side. `rejectAll` fails pending calls, e.g. when the engine process exits. */
export function portTransport(port: PortLike): Transport & { rejectAll(message: string): void } {
  let nextId = 1;
  const pending = new Map<number, (r: WireResult) => void>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  port.on('message', (msg) => {
    if (msg?.type === 'result') {
      pending.get(msg.id)?.(msg.result);
      pending.delete(msg.id);
    } else if (msg?.type === 'event') {
      for (const l of listeners) l(msg.event, msg.payload);
    }
  });
  return {
    invoke(name: CallName, request: unknown) {
      const id = nextId++;
      return new Promise<WireResult>((resolve) => {
        pending.set(id, resolve);
        port.postMessage({ type: 'call', id, name, request });
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    rejectAll(message) {
      for (const resolve of pending.values()) resolve({ ok: false, error: { kind: 'transport', message } });
      pending.clear();
    },
  };
}
