// How `npm start` decides about the Electron binary, and what it says when the download cannot happen.
// The download itself is Electron's own installer; here it is pointed at a closed local port, so the test
// never fetches 100 MB and fails the same way on every machine.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronPlan, installElectron, installedElectron } from '../../bin/electron-binary.mjs';

describe('electronPlan', () => {
  it('uses an installed binary, installs a missing one, and skips the download where asked', () => {
    expect(electronPlan({ browser: false, installed: '/x/electron', env: {} })).toEqual({ action: 'use', bin: '/x/electron' });
    expect(electronPlan({ browser: false, installed: null, env: {} })).toEqual({ action: 'install' });
    const ci = electronPlan({ browser: false, installed: null, env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    expect(ci).toEqual({ action: 'browser', reason: expect.stringMatching(/ELECTRON_SKIP_BINARY_DOWNLOAD is set/) });
    expect(electronPlan({ browser: true, installed: '/x/electron', env: {} })).toEqual({ action: 'browser', reason: '--browser was given.' });
  });
});

describe.skipIf(installedElectron() !== null)('installElectron where the download fails', () => {
  it('names the host and the cause, prints a progress line, and leaves no binary folder behind', async () => {
    const before = process.env.ELECTRON_MIRROR;
    process.env.ELECTRON_MIRROR = 'http://127.0.0.1:1/';
    const lines: string[] = [];
    try {
      const r = await installElectron((l: string) => lines.push(l));
      expect(r.bin).toBeUndefined();
      expect(r.reason).toMatch(/^downloading Electron [\d.]+ from 127\.0\.0\.1:1 failed \(.*ECONNREFUSED.*\); check the connection or set ELECTRON_MIRROR/);
      expect(lines[0]).toMatch(/^Downloading Electron [\d.]+ .* from 127\.0\.0\.1:1…$/);
      const dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
      expect(existsSync(path.join(dir, 'dist'))).toBe(false);
      expect(readdirSync(dir)).not.toContain('path.txt');
    } finally {
      if (before === undefined) delete process.env.ELECTRON_MIRROR;
      else process.env.ELECTRON_MIRROR = before;
    }
  }, 60_000);
});
