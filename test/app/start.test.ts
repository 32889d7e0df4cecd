import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm start` on a machine without the Electron binary (this one): it must say so, fall back to
// browser mode on the sample notes, print a tokened URL, and serve the real engine there.
const electronInstalled = (() => {
  try {
    return existsSync(createRequire(import.meta.url)('electron') as string);
  } catch {
    return false;
  }
})();

describe.skipIf(electronInstalled)('npm start without Electron', () => {
  it('falls back to browser mode on the sample notes and serves the engine', async () => {
    const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'loci-start-')), 'sample.db');
    // As on CI: no download of the binary; start says so and serves browser mode.
    const child = spawn(process.execPath, ['bin/start.mjs', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL in 60 s:\n${out}`)), 60_000);
        child.stdout.on('data', () => {
          const m = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[0]);
          }
        });
      });
      expect(out).toMatch(/Electron is not available: .*ELECTRON_SKIP_BINARY_DOWNLOAD is set/);
      expect(out).toMatch(/Starting browser mode instead/);
      const u = new URL(url);
      // The printed URL opens the page once; the page carries the API token.
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const token = /<meta name="loci-token" content="([^"]+)">/.exec(await page.text())?.[1];
      expect(token).toBeTruthy();
      const call = (name: string) =>
        fetch(`${u.origin}/api/call/${name}`, { method: 'POST', headers: { 'x-loci-token': token!, 'content-type': 'application/json' }, body: '{}' }).then((r) => r.json());
      const notes = readdirSync('resources/sample-notes', { recursive: true, encoding: 'utf8' }).filter((f) => /\.(md|txt)$/.test(f));
      expect(notes.length).toBeGreaterThan(5);
      let indexed = 0;
      for (let i = 0; i < 150 && indexed < notes.length; i++) {
        indexed = (await call('library.documents')).result.filter((d: { status: string }) => d.status === 'indexed').length;
        if (indexed < notes.length) await new Promise((r) => setTimeout(r, 200));
      }
      expect(indexed).toBe(notes.length);
      // A folder joins the library once its first run has finished (a failed or cancelled one is not saved).
      for (let i = 0; i < 50 && (await call('library.roots')).result.length === 0; i++) await new Promise((r) => setTimeout(r, 200));
      expect(await call('library.roots')).toEqual({ ok: true, result: [path.resolve('resources/sample-notes')] });
      expect((await fetch(`${u.origin}/`)).status).toBe(401);
      // Spent: the same URL (as left in the browser history) opens nothing now.
      expect((await fetch(url)).status).toBe(401);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    expect(out).toMatch(/SIGTERM: stopping indexing and closing the index/);
  }, 90_000);
});
