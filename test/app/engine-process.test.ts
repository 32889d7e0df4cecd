import { fork } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../main/contract/client.js';
import { portTransport, type PortMessage } from '../../main/contract/transports/message-port.js';

// The desktop app's engine process (main/app/engine-process.ts) for real — real engine, real SQLite —
// in a Node child whose parentPort is Node IPC (support/utility-harness.mjs) instead of Electron's.
const BIG = path.resolve('../shared/data/notes/silverbullet_docs');
const SAMPLE = path.resolve('resources/sample-notes');

function start(env: Record<string, string>) {
  const child = fork(path.resolve('test/app/support/utility-harness.mjs'), [], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise<void>((resolve) => child.on('message', (m: { type?: string }) => m?.type === 'ready' && resolve()));
  const transport = portTransport({ postMessage: (m) => child.send(m), on: (_e, l) => child.on('message', (m: PortMessage) => l(m)) });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, client: createClient(transport), exited };
}

describe('engine process (Electron utilityProcess entry, run under Node)', () => {
  it('indexes the folder it is given, answers contract calls, refuses bad ones, and shuts down cleanly', async () => {
    const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'loci-ep-')), 'index.db');
    const { child, ready, client, exited } = start({ LOCI_DB: db, LOCI_FOLDER: SAMPLE });
    await ready;
    const reports: string[] = [];
    client.on('index.report', (r) => reports.push(r.root));
    for (let i = 0; i < 100 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(reports).toEqual([SAMPLE]);
    expect(await client.call('library.roots', {})).toEqual([SAMPLE]);
    expect((await client.call('library.documents', {})).length).toBeGreaterThan(5);
    expect(await client.call('host.info', {})).toMatchObject({ host: 'electron' });
    const bad = await client.call('ask', { question: '' }).catch((e) => e);
    expect(bad.message).toMatch(/"ask": invalid request — question/);
    child.send({ type: 'shutdown' });
    expect(await exited).toBe(0);
  }, 60_000);

  it.skipIf(!existsSync(BIG))('quitting mid-index leaves a consistent index that resumes', async () => {
    const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'loci-ep-')), 'index.db');
    const { child, ready, client, exited } = start({ LOCI_DB: db, LOCI_FOLDER: BIG });
    await ready;
    let extracting = false;
    client.on('index.progress', (p) => (extracting ||= p.progress.phase === 'extract' && p.progress.done > 5));
    for (let i = 0; i < 300 && !extracting; i++) await new Promise((r) => setTimeout(r, 50));
    expect(extracting).toBe(true);
    const t0 = Date.now();
    child.send({ type: 'shutdown' });
    expect(await exited).toBe(0);
    const shutdownMs = Date.now() - t0;
    console.log(`[engine-process] shutdown mid-index took ${shutdownMs} ms`);
    const sqlite = new Database(db, { readonly: true });
    expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    const indexed = (sqlite.prepare("SELECT count(*) AS n FROM documents WHERE status = 'indexed'").get() as { n: number }).n;
    sqlite.close();
    expect(indexed).toBeLessThan(200);
    // Next start picks the folder up again and finishes it.
    const again = start({ LOCI_DB: db });
    await again.ready;
    const report = await again.client.call('library.index', { root: BIG });
    expect(report.unchanged).toBe(indexed);
    expect(report.counts.documents).toBeGreaterThan(indexed);
    again.child.send({ type: 'shutdown' });
    expect(await again.exited).toBe(0);
  }, 120_000);
});
