import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LociEngine } from '../../main/engine/engine.js';
import { FIXTURE_NOTES, REPO_ROOT } from '../fixtures/paths.js';

// A real index that this process cannot write, opened by the real CLI (ask, stats, mindmap, serve) in a
// child process: a read-only file, a read-only folder, a read-only filesystem and a full disk. As root,
// permissions do not stop writes, so those children run as `nobody` (setpriv); the read-only mount and
// the full disk (a 2 MB tmpfs) are made in a private mount namespace (unshare -m). Where this machine
// allows neither, those cases skip and say why.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'loci-ro-'));
const home = path.join(tmp, 'home');
const source = path.join(tmp, 'source.db');
const BIN = path.join(REPO_ROOT, 'bin/loci.mjs');
const isRoot = process.getuid?.() === 0;
const canDrop = isRoot && spawnSync('setpriv', ['--reuid', '65534', '--regid', '65534', '--clear-groups', 'true']).status === 0;
const canMount = isRoot && spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=1m tmpfs ${JSON.stringify(tmp)}`]).status === 0;
const unprivileged = !isRoot || canDrop;
const why = (ok: boolean, what: string) => (ok ? '' : `skipped: ${what}`);

beforeAll(async () => {
  for (const reason of [why(unprivileged, 'running as root without setpriv, so file modes cannot stop writes'), why(canMount, 'no private mount namespace (unshare -m) for a read-only mount or a full tmpfs')]) {
    if (reason) console.log(reason);
  }
  mkdirSync(home, { mode: 0o777 });
  chmodSync(home, 0o777);
  chmodSync(tmp, 0o755);
  const engine = await LociEngine.open({ dbPath: source });
  try {
    await engine.library.index(FIXTURE_NOTES);
  } finally {
    await engine.close();
  }
  // The CLI's kept bundle is built now, as this user, so the unprivileged children only read it.
  spawnSync(process.execPath, [BIN, '--help']);
}, 120_000);
afterAll(() => {
  chmodSync(tmp, 0o755);
  rmSync(tmp, { recursive: true, force: true });
});

function command(args: string[], opts: { asNobody?: boolean; setup?: string } = {}): string[] {
  const node = [process.execPath, BIN, ...args];
  const user = opts.asNobody && isRoot ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups'] : [];
  if (!opts.setup) return [...user, ...node];
  const quoted = [...user, ...node].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return ['unshare', '-m', 'sh', '-c', `${opts.setup} && exec ${quoted}`];
}

function loci(args: string[], opts: { asNobody?: boolean; setup?: string } = {}): { status: number | null; stdout: string; stderr: string } {
  const [cmd, ...rest] = command(args, opts);
  const r = spawnSync(cmd!, rest, { encoding: 'utf8', env: { ...process.env, HOME: home, XDG_DATA_HOME: home, LOCI_LOG_DIR: home }, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A copy of the index in a folder of its own, with the modes given. */
function placed(name: string, dirMode: number, fileMode: number): string {
  const dir = path.join(tmp, name);
  mkdirSync(dir);
  const db = path.join(dir, 'index.db');
  cpSync(source, db);
  chmodSync(db, fileMode);
  chmodSync(dir, dirMode);
  return db;
}

function expectReadable(db: string, cause: RegExp, opts: { asNobody?: boolean; setup?: string } = {}) {
  const ask = loci(['ask', 'Who directed The Lantern?', '--db', db], opts);
  expect(ask.stderr).toMatch(/open read-only because/);
  expect(ask.stderr).toMatch(cause);
  expect(ask.stderr).not.toMatch(/not a Loci index/);
  expect(ask.stdout).toMatch(/Sofie Brandt/);
  expect(ask.status).toBe(0);
  const stats = loci(['stats', '--db', db], opts);
  expect(stats.status).toBe(0);
  expect(stats.stdout).toMatch(/documents\s+10/);
  const mindmap = loci(['mindmap', 'nested-headings.md', '--db', db], opts);
  expect(mindmap.status).toBe(0);
  expect(mindmap.stdout.length).toBeGreaterThan(20);
}

describe('a read-only index opens read-only and says why', () => {
  it.skipIf(!unprivileged)('a read-only file', () => {
    const db = placed('file', 0o777, 0o444);
    expectReadable(db, /the file .*index\.db is read-only for this user/, { asNobody: true });
  }, 120_000);

  it.skipIf(!unprivileged)('a read-only folder (SQLite cannot create the -wal and -shm files)', () => {
    const db = placed('folder', 0o755, 0o666);
    expectReadable(db, /its folder .* is read-only for this user/, { asNobody: true });
  }, 120_000);

  it.skipIf(!unprivileged)('a read-only folder holding a -wal a killed writer left: said, not silently dropped', () => {
    const dir = path.join(tmp, 'wal');
    mkdirSync(dir);
    const db = path.join(dir, 'index.db');
    const scratch = path.join(tmp, 'scratch.db');
    cpSync(source, scratch);
    const writer = new Database(scratch);
    writer.pragma('wal_autocheckpoint = 0');
    writer.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('threads', '3')").run();
    // The files as a writer killed now leaves them: its commit only in the -wal, no checkpoint.
    cpSync(scratch, db);
    cpSync(`${scratch}-wal`, `${db}-wal`);
    writer.close();
    chmodSync(db, 0o644);
    chmodSync(`${db}-wal`, 0o644);
    chmodSync(dir, 0o755);
    const ask = loci(['ask', 'Who directed The Lantern?', '--db', db], { asNobody: true });
    expect(ask.stderr).toMatch(/is read-only for this user; its last changes, still in the index's -wal file, are not shown/);
    expect(ask.stdout).toMatch(/Sofie Brandt/);
  }, 120_000);

  it.skipIf(!canMount)('a read-only filesystem', () => {
    const db = placed('mount', 0o755, 0o644);
    const dir = JSON.stringify(path.dirname(db));
    expectReadable(db, /the filesystem holding .* is mounted read-only/, { setup: `mount --bind ${dir} ${dir} && mount -o remount,bind,ro ${dir}` });
  }, 120_000);

  it.skipIf(!canMount)('a full disk', () => {
    const dir = path.join(tmp, 'full');
    mkdirSync(dir);
    const db = path.join(dir, 'index.db');
    const q = (p: string) => JSON.stringify(p);
    const setup = `mount -t tmpfs -o size=2m tmpfs ${q(dir)} && cp ${q(source)} ${q(db)} && (dd if=/dev/zero of=${q(path.join(dir, 'fill'))} bs=4k 2>/dev/null; true)`;
    expectReadable(db, /the disk holding .* is full/, { setup });
  }, 120_000);

  it.skipIf(!unprivileged)('loci serve answers over HTTP, names the cause, and refuses a change with 409', async () => {
    const db = placed('serve', 0o755, 0o666);
    const staticDir = path.join(tmp, 'ui');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<html><head></head><body></body></html>');
    const [cmd, ...rest] = command(['serve', '--db', db, '--static', staticDir], { asNobody: true });
    const child = spawn(cmd!, rest, { env: { ...process.env, HOME: home, XDG_DATA_HOME: home, LOCI_LOG_DIR: home } });
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (d) => (err += String(d)));
      const openUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += String(d);
          const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
      const page = await fetch(openUrl);
      const token = /<meta name="[^"]+" content="([^"]+)">/.exec(await page.text())![1]!;
      const base = new URL(openUrl).origin;
      const call = async (name: string, body: unknown) => {
        const r = await fetch(`${base}/api/call/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loci-token': token }, body: JSON.stringify(body) });
        return { status: r.status, body: (await r.json()) as { result?: unknown; error?: { message: string; code?: string } } };
      };
      const ask = await call('ask', { question: 'Who directed The Lantern?' });
      expect(ask.status).toBe(200);
      expect(JSON.stringify(ask.body.result)).toMatch(/Sofie Brandt/);
      const warnings = await call('engine.warnings', {});
      expect(JSON.stringify(warnings.body.result)).toMatch(/read-only because its folder/);
      const change = await call('settings.update', { patch: { threads: 2 } });
      expect(change.status).toBe(409);
      expect(change.body.error?.message).toMatch(/open read-only because its folder/);
      expect(err).toMatch(/open read-only because its folder .* is read-only/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 120_000);
});
