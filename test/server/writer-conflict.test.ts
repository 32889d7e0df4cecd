// Issue 43's "serve dies": a UI index or re-index while a `loci index` process writes the same index is
// answered 409 naming that process, over real HTTP from the real server, and the server lives on.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';
import { startBrowserMode, type BrowserMode } from '../../main/server/browser-mode.js';
import { writeGeneratedNotes } from '../support/generated-notes.js';
import { httpCall, type HttpCallResult } from '../support/http-call.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'loci-conflict-'));
const dbPath = path.join(tmp, 'index.db');
const notes = path.join(tmp, 'notes');
let mode: BrowserMode;

const call = (name: string, body: unknown): Promise<HttpCallResult> => httpCall(mode.server, name, body);

beforeAll(async () => {
  await writeGeneratedNotes(notes, 40);
  const engine = await LociEngine.open({ dbPath });
  mode = await startBrowserMode({ engine, staticDir: tmp, log: () => {} });
  expect((await call('library.index', { root: notes })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await mode.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

describe('a UI write while a CLI index runs', () => {
  it('is 409 locked naming the CLI process (index and re-index alike), and works once it is done', { timeout: 120_000 }, async () => {
    await writeGeneratedNotes(notes, 400);
    const child = spawn(process.execPath, [path.resolve('bin/loci.mjs'), 'index', notes, '--db', dbPath, '--json'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    const lockFile = `${dbPath}.lock`;
    const heldByChild = () => existsSync(lockFile) && readFileSync(lockFile, 'utf8').includes(`"pid":${child.pid},`);
    while (!heldByChild() && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    expect(child.exitCode).toBeNull();

    const index = await call('library.index', { root: notes });
    const reindex = await call('library.reindex', { root: notes });
    for (const r of [index, reindex]) {
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('locked');
      expect(r.body.error?.message).toMatch(new RegExp(`Another Loci process \\(pid ${child.pid} .*\\) is indexing .*notes`));
      expect(r.body.error?.holder?.pid).toBe(child.pid);
    }
    // Readers are not held up meanwhile.
    expect((await call('stats', {})).status).toBe(200);

    expect(await exited).toBe(0);
    const after = await call('library.index', { root: notes });
    expect(after.status).toBe(200);
    expect((after.body as unknown as { result: { counts: { documents: number } } }).result.counts.documents).toBe(400);
  });
});
