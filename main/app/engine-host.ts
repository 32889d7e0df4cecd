// Hosts the engine in an Electron utilityProcess — never in the window's process — and exposes it to
// the main process as a contract Transport.
import { utilityProcess, type UtilityProcess } from 'electron';
import type { Transport } from '../contract/client.js';
import { portTransport, type PortMessage } from '../contract/transports/message-port.js';

export interface EngineHost {
  transport: Transport;
  /** Stops index runs, closes the database, waits for the process to exit (or kills it after `ms`). */
  shutdown(ms?: number): Promise<void>;
}

export function startEngineHost(entry: string, env: Record<string, string>, onExit: (code: number) => void): EngineHost {
  const child: UtilityProcess = utilityProcess.fork(entry, [], {
    serviceName: 'Loci engine',
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const transport = portTransport({
    postMessage: (m) => child.postMessage(m),
    on: (_e, listener) => child.on('message', (m: PortMessage) => listener(m)),
  });
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = true;
      transport.rejectAll(`the engine process exited (code ${code})`);
      onExit(code);
      resolve();
    }),
  );
  return {
    transport,
    async shutdown(ms = 15_000) {
      if (exited) return;
      child.postMessage({ type: 'shutdown' });
      const timer = setTimeout(() => child.kill(), ms);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}
