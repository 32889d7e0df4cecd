import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';
import { setSetting } from '../../main/engine/store/settings.js';
import { FIXTURE_NOTES } from '../fixtures/paths.js';
import { tinyModelFile } from '../llm/helpers/tiny-model.js';

// A chat model that cannot load or answer: Settings refuse it as they refuse an embedder that does not
// load, and one stored anyway (by an earlier build, or a server that has since gone) leaves every
// question answered extractively with a notice. Real index, real sockets, a real GGUF.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'loci-chatmodel-'));
let engine: LociEngine;
const QUESTION = 'Who directed The Lantern?';

/** A local server: `mode` 'ok' answers any request 404 (there, but no such model), 'fail' answers 500. */
async function server(mode: 'ok' | 'fail'): Promise<{ url: string; close(): Promise<void> }> {
  const s = http.createServer((req, res) => {
    res.writeHead(mode === 'fail' && req.url?.includes('chat') ? 500 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'no model here' } }));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: () => new Promise((r) => s.close(() => r())) };
}

beforeAll(async () => {
  engine = await LociEngine.open({ dbPath: path.join(tmp, 'index.db') });
  const notes = path.join(tmp, 'notes');
  cpSync(FIXTURE_NOTES, notes, { recursive: true });
  await engine.library.index(notes);
}, 60_000);
afterAll(async () => {
  await engine.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('settings check the chat model', () => {
  it.each([
    ['a file that is not a GGUF', '/etc/passwd', /not a GGUF model file/],
    ['a model that is not installed', 'no-such-model', /Unknown model no-such-model/],
    ['a server with no model name', 'http://127.0.0.1:9', /needs a model name after #/],
  ])('refuse %s, storing nothing', async (_what, spec, why) => {
    const err = await engine.settings.update({ model: spec }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid' });
    expect((err as Error).message).toMatch(/cannot be used, so the setting was not changed/);
    expect((err as Error).message).toMatch(why);
    expect(engine.settings.get().model).toBe('');
  });

  it('refuse a server nobody answers at', async () => {
    const gone = await server('ok');
    await gone.close();
    const err = await engine.settings.update({ model: `${gone.url}#qwen` }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/no server answers at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(engine.settings.get().model).toBe('');
  });

  it('take a real GGUF and a server that answers', async () => {
    // An index with no folders, so choosing a model starts no model pass.
    const bare = await LociEngine.open({ dbPath: path.join(tmp, 'bare.db') });
    const up = await server('ok');
    try {
      await bare.settings.update({ model: `${up.url}#qwen` });
      expect(bare.settings.get().model).toBe(`${up.url}#qwen`);
      await bare.settings.update({ model: tinyModelFile() });
      expect(bare.settings.get().model).toBe(tinyModelFile());
    } finally {
      await up.close();
      await bare.close();
    }
  }, 60_000);
});

describe('a chat model that fails at ask time', () => {
  const extractive = async (why: RegExp) => {
    const a = await engine.answers.ask(QUESTION);
    expect(a.mode).toBe('extractive');
    expect(a.text).toMatch(/Sofie Brandt/);
    expect(a.citations.length).toBeGreaterThan(0);
    expect(a.notice).toMatch(/so this answer is extractive/);
    expect(a.notice).toMatch(why);
  };

  it('a stored model that is not a GGUF (accepted by an earlier build)', async () => {
    setSetting(engine.db, 'model', '/etc/passwd');
    try {
      await extractive(/The chat model '\/etc\/passwd' could not be loaded \(\/etc\/passwd is not a GGUF model file\.\)/);
    } finally {
      setSetting(engine.db, 'model', '');
    }
  });

  it('a server that has gone away since it was chosen', async () => {
    const s = await server('ok');
    await s.close();
    setSetting(engine.db, 'model', `${s.url}#qwen`);
    try {
      await extractive(/could not answer/);
    } finally {
      setSetting(engine.db, 'model', '');
    }
  });

  it('a server that answers every question with an error', async () => {
    const s = await server('fail');
    setSetting(engine.db, 'model', `${s.url}#qwen`);
    try {
      await extractive(/could not answer \(.*500/);
    } finally {
      setSetting(engine.db, 'model', '');
      await s.close();
    }
  });
});
