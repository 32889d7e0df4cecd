// A real index served in browser mode over real HTTP, for tests of what the wire says: a temporary folder
// holding the notes and the index, the notes indexed through the server before the tests start.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';
import { startBrowserMode, type BrowserMode } from '../../main/server/browser-mode.js';
import { httpCall, type HttpCallResult } from './http-call.js';

export interface ServedIndex {
  tmp: string;
  dbPath: string;
  notes: string;
  engine: LociEngine;
  mode: BrowserMode;
  call(name: string, body: unknown): Promise<HttpCallResult>;
  close(): Promise<void>;
}

/** Writes the notes with `writeNotes`, opens an engine on a new index, serves it and indexes the notes. */
export async function serveIndexedNotes(prefix: string, writeNotes: (folder: string) => unknown): Promise<ServedIndex> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), prefix));
  const dbPath = path.join(tmp, 'index.db');
  const notes = path.join(tmp, 'notes');
  await writeNotes(notes);
  const engine = await LociEngine.open({ dbPath });
  const mode = await startBrowserMode({ engine, staticDir: tmp, log: () => {} });
  const call = (name: string, body: unknown) => httpCall(mode.server, name, body);
  expect((await call('library.index', { root: notes })).status).toBe(200);
  return {
    tmp,
    dbPath,
    notes,
    engine,
    mode,
    call,
    async close() {
      await mode.close().catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
