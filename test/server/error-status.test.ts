import { cpSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { createClient } from '../../main/contract/client.js';
import { createDispatcher, validatedEmit } from '../../main/contract/dispatcher.js';
import { LociCallError } from '../../main/contract/errors.js';
import { portTransport, servePort, type PortLike } from '../../main/contract/transports/message-port.js';
import { LociEngine } from '../../main/engine/engine.js';
import { composeHost } from '../../main/host/compose.js';
import { serveIndexedNotes, type ServedIndex } from '../support/served-index.js';

// Each kind of failure answered over real HTTP by the real server on a real index: the caller's mistakes
// as 400/404, a clash with another writer as 409, Loci's own faults as 500 — each in words for people.
let served: ServedIndex;
let dbPath: string;
let engine: LociEngine;
let notes: string;
const call = (name: string, body: unknown) => served.call(name, body);

beforeAll(async () => {
  served = await serveIndexedNotes('loci-status-', (folder) => cpSync(path.resolve('test/fixtures/notes'), folder, { recursive: true }));
  ({ dbPath, engine, notes } = served);
}, 60_000);
afterAll(() => served.close());

describe('HTTP statuses by error kind', () => {
  it.each([
    ['an unknown setting', 'settings.update', { patch: { nope: 1 } }, 400, /Unknown setting 'nope'/],
    ['a bad setting value', 'settings.update', { patch: { threads: 'many' } }, 400, /Setting 'threads'/],
    ['a chat model that is not a GGUF', 'settings.update', { patch: { model: '/etc/passwd' } }, 400, /Setting 'model': the chat model '\/etc\/passwd' cannot be used.*not a GGUF model file/],
    ['an embedder that does not exist', 'settings.update', { patch: { embedder: 'no-such-embedder' } }, 400, /could not be loaded/],
    ['a model id not in the catalogue', 'models.pull', { id: 'no-such-model' }, 404, /not in the model catalogue/],
    ['a model that is not installed', 'models.remove', { id: 'no-such-model' }, 404, /No installed model/],
    ['a note path outside the folder', 'notes.text', { docPath: '../../../etc/passwd' }, 404, /No indexed note/],
    ['a folder that is not in the library', 'library.remove', { root: '/etc' }, 404, /not a library folder/],
    ['a chat that does not exist', 'chats.get', { id: 4242 }, 404, /No chat 4242/],
    ['a scope glob with a backwards range', 'library.setScope', { root: '<notes>', include: ['[z-a]*.md'], exclude: [] }, 400, /not a valid glob: the range 'z-a' runs backwards/],
    ['a scope glob never closed', 'library.setScope', { root: '<notes>', include: [], exclude: ['drafts/[ab'] }, 400, /never closed/],
  ])('%s is answered %i', async (_what, name, body, status, message) => {
    const r = await call(name, JSON.parse(JSON.stringify(body).replace('"<notes>"', JSON.stringify(notes))));
    expect(r.status).toBe(status);
    expect(r.body.ok).toBe(false);
    expect(r.body.error?.message).toMatch(message);
    expect(r.body.error?.message).not.toMatch(/Error:|at .*\.ts:\d+|SQLITE_/);
  });

  it('a refused scope changes nothing, and valid globs are taken', async () => {
    const folders = (await call('library.folders', {})).body as unknown as { result: { include: string[]; exclude: string[] }[] };
    expect(folders.result[0]).toMatchObject({ include: [], exclude: [] });
    for (const glob of ['**/*.md', '[a-z]*.md', '[!.]*', 'notes/\\[draft\\].md', '[]a]']) {
      const r = await call('library.setScope', { root: notes, include: [glob], exclude: [] });
      expect(r.status, glob).toBe(200);
    }
    expect((await call('library.setScope', { root: notes, include: [], exclude: [] })).status).toBe(200);
  }, 60_000);

  it('a note whose file became a link out of its folder is refused as 400, not read', async () => {
    const { symlinkSync, unlinkSync } = await import('node:fs');
    const docs = (await call('library.documents', {})).body as unknown as { result: { relPath: string }[] };
    const victim = docs.result[0]!.relPath;
    unlinkSync(path.join(notes, victim));
    symlinkSync('/etc/hostname', path.join(notes, victim));
    const r = await call('notes.text', { docPath: victim });
    expect(r.status).toBe(400);
    expect(r.body.error?.message).toMatch(/leads outside its library folder/);
  });

  it('a write while another process holds the index is 409 locked, with a message for people', async () => {
    const other = new Database(dbPath);
    other.exec('BEGIN IMMEDIATE');
    try {
      const r = await call('settings.update', { patch: { threads: 2 } });
      expect(r.status).toBe(409);
      expect(r.body.error?.code).toBe('locked');
      expect(r.body.error?.message).toMatch(/busy with another writer/);
      expect(r.body.error?.message).not.toMatch(/SQLITE|database is locked/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await call('settings.update', { patch: { threads: 2 } })).status).toBe(200);
  }, 20_000);

  it('the Electron transport (a real MessagePort pair) carries the same codes to the client', async () => {
    const { port1, port2 } = new MessageChannel();
    const asPort = (p: typeof port1): PortLike => ({ postMessage: (m) => p.postMessage(m), on: (_e, l) => p.on('message', l) });
    const emit = validatedEmit(() => {});
    const host = composeHost({ engine, emit, host: { host: 'electron', canPickFolder: true, version: '0' } });
    servePort(asPort(port2), createDispatcher(host.handlers));
    const client = createClient(portTransport(asPort(port1)));
    try {
      const cases = [
        [client.call('settings.update', { patch: { nope: 1 } }), 'invalid'],
        [client.call('chats.get', { id: 4242 }), 'not_found'],
        [client.call('models.pull', { id: 'no-such-model' }), 'not_found'],
      ] as const;
      for (const [pending, code] of cases) {
        const err = await pending.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(LociCallError);
        expect((err as LociCallError).code).toBe(code);
      }
    } finally {
      host.stop();
      port1.close();
    }
  });

  it("an engine fault is 500 without SQLite's or JavaScript's internals in the message", async () => {
    await engine.close();
    const r = await call('settings.get', {});
    expect(r.status).toBe(500);
    expect(r.body.error?.code).toBe('internal');
    expect(r.body.error?.message).toMatch(/internal error/);
    expect(r.body.error?.message).not.toMatch(/database connection|TypeError|SqliteError/);
  });
});
