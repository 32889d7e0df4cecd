// How `npm start` gives the engine inside Electron a SQLite binding built for Electron while the CLI keeps
// Node's. Fetching the real Electron build needs github.com, which this machine cannot reach: the fetch is
// pointed at a closed local port (it must fail in words and leave nothing), and the hand-off to the engine
// is checked with node_modules' own binding through the same variable.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronSqliteBinding, ensureElectronSqlite } from '../../bin/electron-sqlite.mjs';
import { openSqlite } from '../../main/engine/store/sqlite.js';

const require = createRequire(import.meta.url);
const root = mkdtempSync(path.join(os.tmpdir(), 'loci-esqlite-'));
afterEach(() => {
  delete process.env.LOCI_SQLITE_BINDING;
});

describe('better-sqlite3 for Electron', () => {
  it('is kept per Electron version, platform and architecture, apart from the CLI’s own build', () => {
    const { dir, file } = electronSqliteBinding('41.7.1', { platform: 'darwin', arch: 'arm64' });
    expect(path.basename(dir)).toBe(`better-sqlite3-${require('better-sqlite3/package.json').version}-electron-41.7.1-darwin-arm64`);
    expect(file.startsWith(path.dirname(require.resolve('better-sqlite3/package.json')) + path.sep)).toBe(false);
    expect(file.endsWith(path.join('build', 'Release', 'better_sqlite3.node'))).toBe(true);
  });

  it('when the fetch fails, says why and what to do, and leaves no folder behind', async () => {
    const lines: string[] = [];
    const r = await ensureElectronSqlite('41.7.1', { root, mirror: 'http://127.0.0.1:1', log: (l: string) => lines.push(l) });
    expect(r.binding).toBeUndefined();
    expect(r.reason).toMatch(/^better-sqlite3 built for Electron 41\.7\.1 could not be fetched \(.*ECONNREFUSED.*\); with a connection to github\.com start again, or run `npx @electron\/rebuild/);
    expect(lines[0]).toMatch(/^Fetching better-sqlite3 built for Electron 41\.7\.1/);
    expect(readdirSync(root)).toEqual([]);
  }, 60_000);

  it('a build fetched before is used without a fetch', async () => {
    const { file } = electronSqliteBinding('40.0.0', { root });
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '');
    expect(await ensureElectronSqlite('40.0.0', { root, mirror: 'http://127.0.0.1:1', log: () => {} })).toEqual({ binding: file });
    rmSync(path.join(root, path.basename(path.dirname(path.dirname(path.dirname(file))))), { recursive: true });
  });

  it('the engine opens SQLite with the binding LOCI_SQLITE_BINDING names, and says which file when it cannot load it', () => {
    const own = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    expect(existsSync(own)).toBe(true);
    process.env.LOCI_SQLITE_BINDING = own;
    const db = openSqlite(':memory:');
    expect(db.prepare('SELECT sqlite_version() AS v').get()).toMatchObject({ v: expect.stringMatching(/^3\./) });
    db.close();
    process.env.LOCI_SQLITE_BINDING = path.join(root, 'missing', 'better_sqlite3.node');
    expect(() => openSqlite(':memory:')).toThrow(/missing\/better_sqlite3\.node/);
  });

  it('no engine file opens SQLite except through openSqlite (else Electron would load the CLI’s binding)', () => {
    const engine = path.resolve('main/engine');
    const files = readdirSync(engine, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const direct = files.filter((f) => f !== path.join('store', 'sqlite.ts') && /new Database\(/.test(readFileSync(path.join(engine, f), 'utf8')));
    expect(files.length).toBeGreaterThan(100);
    expect(direct).toEqual([]);
  });
});
