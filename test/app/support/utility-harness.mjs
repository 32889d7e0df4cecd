// Runs main/app/engine-process.ts under plain Node for tests: Electron's utilityProcess gives the
// child `process.parentPort`; here the same is built from Node's child_process IPC channel.
import { register } from 'tsx/esm/api';

register();
process.parentPort = {
  on: (_event, listener) => process.on('message', (data) => listener({ data })),
  postMessage: (message) => process.send(message),
};
await import('../../../main/app/engine-process.ts');
