// The renderer's only door to the app: the contract's client over IPC, as window.loci. Nothing else
// is exposed (no ipcRenderer, no Node APIs).
import { contextBridge, ipcRenderer } from 'electron';
import { createClient } from '../main/contract/client.js';
import { ipcTransport } from '../main/contract/transports/ipc.js';

const client = createClient(ipcTransport(ipcRenderer));
contextBridge.exposeInMainWorld('loci', { call: client.call, on: client.on });
