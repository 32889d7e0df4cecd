// Electron IPC transport: two generic channels carry every call and event of the contract. The
// renderer half takes an ipcRenderer-like object so this file never imports electron.
import type { CallName } from '../contract.js';
import type { Transport } from '../client.js';
import type { WireResult } from '../errors.js';

export const IPC_CALL_CHANNEL = 'loci:call';
export const IPC_EVENT_CHANNEL = 'loci:event';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function ipcTransport(ipc: IpcRendererLike): Transport {
  return {
    async invoke(name: CallName, request: unknown) {
      return (await ipc.invoke(IPC_CALL_CHANNEL, name, request)) as WireResult;
    },
    subscribe(listener) {
      const onEvent = (_e: unknown, event: unknown, payload: unknown) => listener(String(event), payload);
      ipc.on(IPC_EVENT_CHANNEL, onEvent as never);
      return () => void ipc.removeListener(IPC_EVENT_CHANNEL, onEvent as never);
    },
  };
}
