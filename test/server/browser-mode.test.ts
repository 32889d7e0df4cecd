import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type LociClient } from '../../main/contract/client.js';
import { httpTransport } from '../../main/contract/transports/http.js';
import { LociEngine } from '../../main/engine/engine.js';
import { startBrowserMode, type BrowserMode } from '../../main/server/browser-mode.js';

// Browser mode end to end below the UI: the real engine on a real SQLite file, driven through the
// generated HTTP/WebSocket client exactly as the renderer drives it.
const FIXTURES = path.resolve('test/fixtures/notes');
const BIG = path.resolve('../shared/data/notes/silverbullet_docs');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'loci-bm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The fields of the index events these tests read. */
type SeenEvent = { event: string; payload: { root?: string; progress?: { phase: string; done: number }; report?: { root: string; cancelled?: boolean } } };

async function open(name: string): Promise<{ mode: BrowserMode; client: LociClient; events: SeenEvent[] }> {
  const engine = await LociEngine.open({ dbPath: path.join(tmp, `${name}.db`) });
  const mode = await startBrowserMode({ engine, staticDir: tmp, log: () => {} });
  const events: SeenEvent[] = [];
  const client = createClient(httpTransport({ baseUrl: mode.server.url, token: mode.server.token, WebSocket: WebSocket as never }));
  for (const e of ['index.progress', 'index.report', 'index.error'] as const) client.on(e, (payload) => events.push({ event: e, payload }));
  await new Promise((r) => setTimeout(r, 100));
  return { mode, client, events };
}

describe('browser mode over the real engine', () => {
  it('indexes a folder with progress events, then answers with citations and serves notes', async () => {
    const notes = path.join(tmp, 'notes');
    cpSync(FIXTURES, notes, { recursive: true });
    const { mode, client, events } = await open('a');
    try {
      const report = await client.call('library.index', { root: notes, watch: true });
      expect(report.counts.documents).toBeGreaterThan(3);
      expect(await client.call('library.roots', {})).toEqual([notes]);
      // Another spelling of the same folder is the same folder.
      const again = await client.call('library.index', { root: `${notes}/sub/..//`, watch: true });
      expect(again.root).toBe(notes);
      expect(again.unchanged).toBe(report.counts.documents);
      expect(await client.call('library.roots', {})).toEqual([notes]);
      await new Promise((r) => setTimeout(r, 100));
      const phases = new Set(events.filter((e) => e.event === 'index.progress').map((e) => e.payload.progress?.phase));
      expect(phases.size).toBeGreaterThan(1);
      expect(events.some((e) => e.event === 'index.report' && e.payload.report?.root === notes)).toBe(true);

      const docs = await client.call('library.documents', {});
      const withHeadings = docs.find((d) => d.relPath === 'nested-headings.md')!;
      expect(withHeadings.status).toBe('indexed');
      const mm = await client.call('notes.mindMap', { docPath: withHeadings.relPath });
      expect(mm?.kind).toBe('topic');
      expect(mm!.children.length).toBeGreaterThan(0);

      const text = await client.call('notes.text', { docPath: withHeadings.relPath });
      const title = text.lines.find((l) => l.startsWith('#'))!.replace(/^#+\s*/, '');
      const answer = await client.call('ask', { question: title, streamId: 's1' });
      expect(answer.citations.length).toBeGreaterThan(0);
      const c = answer.citations[0]!;
      const cited = await client.call('notes.text', { docPath: c.docPath });
      expect(cited.lines.length).toBeGreaterThanOrEqual(c.lineTo);

      const err = await client.call('notes.text', { docPath: '../../../etc/passwd' }).catch((e) => e);
      expect(err.kind).toBe('engine');
      expect(err.message).toMatch(/notes.text/);
      const graph = await client.call('graph.view', { limit: 500 });
      expect(graph.nodes.some((n) => n.kind === 'doc')).toBe(true);
    } finally {
      client.close();
      await mode.close();
    }
  }, 60_000);

  it.skipIf(!existsSync(BIG))('closing mid-index stops the run and leaves a consistent database', async () => {
    const { mode, client, events } = await open('b');
    const dbPath = path.join(tmp, 'b.db');
    const run = client.call('library.index', { root: BIG }).catch((e) => e);
    const started = Date.now();
    while (!events.some((e) => e.event === 'index.progress' && e.payload.progress?.phase !== 'scan') && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    client.close();
    await mode.close();
    await run;
    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const partial = (db.prepare("SELECT count(*) AS n FROM documents WHERE status = 'indexed'").get() as { n: number }).n;
    db.close();
    // Reopen and finish: the interrupted run resumes where it left off.
    const engine = await LociEngine.open({ dbPath });
    const report = await engine.library.index(BIG);
    await engine.close();
    expect(report.unchanged).toBe(partial);
    expect(report.counts.documents).toBeGreaterThan(partial);
  }, 120_000);

  // Probe 8: a missing chat or note came back as a 500 carrying SQLite's "FOREIGN KEY constraint failed".
  it('answers a missing chat or note as 404 with a clear message, over HTTP', async () => {
    const { mode, client } = await open('c');
    try {
      const call = async (name: string, body: unknown) => {
        const r = await fetch(`${mode.server.url}/api/call/${name}`, { method: 'POST', headers: { 'x-loci-token': mode.server.token, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: r.status, body: (await r.json()) as { error: { message: string; code?: string } } };
      };
      const ask = await call('ask', { question: 'anything', chatId: 424242 });
      expect(ask.status).toBe(404);
      expect(ask.body.error.message).toBe('loci call "ask" failed: No chat 424242.');
      expect(ask.body.error.message).not.toMatch(/FOREIGN KEY/);
      const chat = await call('chats.get', { id: 424242 });
      expect(chat.status).toBe(404);
      const note = await call('notes.text', { docPath: 'nowhere.md' });
      expect(note.status).toBe(404);
      expect(note.body.error.message).toMatch(/No indexed note 'nowhere.md'/);
      // Through the client the code survives, so the UI can tell "gone" from "broken".
      const err = await client.call('chats.get', { id: 424242 }).catch((e) => e);
      expect(err.code).toBe('not_found');
      // A real chat still works.
      const first = await client.call('ask', { question: 'first question' });
      expect(first.chatId).toBeTypeOf('number');
      expect((await client.call('chats.get', { id: first.chatId! })).length).toBe(2);
      // Deleted: gone from the list and from the database (its messages with it), and a second delete is 404.
      expect(await client.call('chats.delete', { id: first.chatId! })).toEqual({});
      expect((await client.call('chats.list', {})).map((c) => c.id)).not.toContain(first.chatId);
      expect((await client.call('chats.get', { id: first.chatId! }).catch((e) => e)).code).toBe('not_found');
      const again = await call('chats.delete', { id: first.chatId });
      expect(again.status).toBe(404);
      expect(again.body.error.message).toBe(`loci call "chats.delete" failed: No chat ${first.chatId}.`);
    } finally {
      client.close();
      await mode.close();
    }
  }, 60_000);

  // Issue 9: a cancel must be shown as cancelled, not as a red error: the job ends with one report that
  // says so, and no index.error.
  it('reports a cancelled index run as cancelled, not as an error', async () => {
    const notes = path.join(tmp, 'many');
    mkdirSync(notes);
    for (let i = 0; i < 400; i++) writeFileSync(path.join(notes, `note-${i}.md`), `# Note ${i}\n\nThe keeper ${i} trims lamp wick number ${i} at dusk near harbour ${i % 17}.\n`);
    const { mode, client, events } = await open('d');
    try {
      const run = client.call('library.index', { root: notes });
      const started = Date.now();
      while (!events.some((e) => e.event === 'index.progress' && e.payload.progress?.phase !== 'scan' && (e.payload.progress?.done ?? 0) > 0) && Date.now() - started < 30_000) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await client.call('library.cancelIndex', { root: notes })).toEqual({ cancelled: true });
      const report = await run;
      expect(report.cancelled).toBe(true);
      expect(report.changed).toBeLessThan(400);
      await new Promise((r) => setTimeout(r, 100));
      expect(events.filter((e) => e.event === 'index.error')).toHaveLength(0);
      const reports = events.filter((e) => e.event === 'index.report' && e.payload.report?.root === notes);
      expect(reports).toHaveLength(1);
      expect(reports[0]!.payload.report).toMatchObject({ cancelled: true });
    } finally {
      client.close();
      await mode.close();
    }
  }, 90_000);
});
