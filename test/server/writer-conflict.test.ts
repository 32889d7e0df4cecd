// Issue 43's "serve dies": a UI index or re-index while a `loci index` process writes the same index is
// answered 409 naming that process, over real HTTP from the real server, and the server lives on.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGeneratedNotes } from '../support/generated-notes.js';
import { serveIndexedNotes, type ServedIndex } from '../support/served-index.js';
import { readHolder } from '../../main/engine/store/writer-lock.js';

let served: ServedIndex;
const call = (name: string, body: unknown) => served.call(name, body);

beforeAll(async () => {
  served = await serveIndexedNotes('loci-conflict-', (notes) => writeGeneratedNotes(notes, 40));
}, 60_000);
afterAll(() => served.close());

describe('a UI write while a CLI index runs', () => {
  it('is 409 locked naming the CLI process (index and re-index alike), and works once it is done', { timeout: 120_000 }, async () => {
    const { notes, dbPath } = served;
    await writeGeneratedNotes(notes, 400);
    const child = spawn(process.execPath, [path.resolve('bin/loci.mjs'), 'index', notes, '--db', dbPath, '--json'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    const lockFile = `${dbPath}.lock`;
    // Held for its index run, not only while it opens the index: it lets go between the two, and a call
    // in that gap is rightly let through (the CLI's run then waits for it).
    const indexingByChild = () => {
      const holder = readHolder(lockFile);
      return holder !== null && holder.pid === child.pid && holder.activity.startsWith('indexing ');
    };
    while (!indexingByChild() && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
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
