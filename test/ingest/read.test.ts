import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNote } from '../../main/engine/ingest/read.js';
import { scanFolder } from '../../main/engine/ingest/scan.js';
import type { SkippedFile } from '../../main/engine/types.js';
import { FIXTURE_NOTES } from '../fixtures/paths.js';

const isRoot = process.getuid?.() === 0;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'loci-read-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | Buffer): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, content);
  return p;
}

describe('readNote', () => {
  it('returns the text and the sha256 of the raw bytes', async () => {
    const p = await file('ok.md', '# Hello\n\nWorld.\n');
    const r = await readNote(p);
    expect(r).toEqual({
      ok: true,
      content: '# Hello\n\nWorld.\n',
      hash: createHash('sha256').update(await readFile(p)).digest('hex'),
    });
  });

  it('strips a BOM and turns CRLF and lone CR into LF without shifting line numbers', async () => {
    const raw = '\uFEFFline one\r\nline two\r\n\r\nline four\rline five\n';
    const r = await readNote(await file('bom-crlf.md', raw));
    if (!r.ok) throw new Error(r.detail);
    expect(r.content.startsWith('line one')).toBe(true);
    expect(r.content.split('\n').slice(0, 5)).toEqual(['line one', 'line two', '', 'line four', 'line five']);
  });

  it('keeps the CRLF fixture on the lines an editor shows', async () => {
    const p = path.join(FIXTURE_NOTES, 'crlf-endings.md');
    const bytes = await readFile(p, 'latin1');
    expect(bytes).toContain('\r\n');
    const r = await readNote(p);
    if (!r.ok) throw new Error(r.detail);
    expect(r.content.split('\n')).toEqual(bytes.split('\r\n'));
  });

  it("reports NUL bytes as 'binary'", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const r = await readNote(await file('image.md', png));
    expect(r).toMatchObject({ ok: false, reason: 'binary' });
  });

  it("reports a file that is mostly control bytes as 'binary'", async () => {
    const r = await readNote(await file('controls.md', Buffer.alloc(200, 0x01)));
    expect(r).toMatchObject({ ok: false, reason: 'binary' });
  });

  it("reports invalid UTF-8 as 'invalid-utf8'", async () => {
    const latin1 = Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e, written in Latin-1', 'latin1');
    const r = await readNote(await file('latin1.md', latin1));
    expect(r).toMatchObject({ ok: false, reason: 'invalid-utf8' });
  });

  it("reports whitespace-only files as 'empty'", async () => {
    expect(await readNote(await file('blank.md', ' \n\t\n'))).toMatchObject({ ok: false, reason: 'empty' });
    expect(await readNote(await file('zero.md', ''))).toMatchObject({ ok: false, reason: 'empty' });
  });

  it("reports what the OS refuses to read as 'unreadable' (a directory, a vanished file)", async () => {
    await mkdir(path.join(dir, 'folder.md'));
    const asDir = await readNote(path.join(dir, 'folder.md'));
    expect(asDir).toMatchObject({ ok: false, reason: 'unreadable' });
    if (!asDir.ok) expect(asDir.detail).toMatch(/EISDIR/);
    const missing = await readNote(path.join(dir, 'vanished.md'));
    expect(missing).toMatchObject({ ok: false, reason: 'unreadable' });
    if (!missing.ok) expect(missing.detail).toMatch(/ENOENT/);
  });

  it('chmod 000 makes a file unreadable for normal users; root reads it anyway', async () => {
    const p = await file('locked.md', '# locked');
    await chmod(p, 0o000);
    const r = await readNote(p);
    await chmod(p, 0o644);
    if (isRoot) expect(r.ok).toBe(true);
    else expect(r).toMatchObject({ ok: false, reason: 'unreadable' });
  });
});

describe('a folder with a binary file, a 50 MB file, an unreadable file and invalid UTF-8', () => {
  it('yields the good notes and exactly those four skips, with reasons', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'loci-four-'));
    try {
      await writeFile(path.join(root, 'good.md'), '# Good\n\nThis one is fine.\n');
      await writeFile(path.join(root, 'binary.md'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
      await writeFile(path.join(root, 'huge.md'), '');
      await truncate(path.join(root, 'huge.md'), 50 * 1024 * 1024);
      // Unreadable even for root: the name is there, the file behind it is not.
      await symlink(path.join(root, 'moved-away.md'), path.join(root, 'unreadable.md'));
      await writeFile(path.join(root, 'latin1.txt'), Buffer.from('na\xefve', 'latin1'));

      const { files, skipped } = await scanFolder(root);
      const all: SkippedFile[] = [...skipped];
      const read: string[] = [];
      for (const f of files) {
        const r = await readNote(f.absPath);
        if (r.ok) read.push(f.relPath);
        else all.push({ relPath: f.relPath, reason: r.reason, detail: r.detail });
      }
      expect(read).toEqual(['good.md']);
      expect(Object.fromEntries(all.map((s) => [s.relPath, s.reason]))).toEqual({
        'binary.md': 'binary',
        'huge.md': 'too-large',
        'unreadable.md': 'unreadable',
        'latin1.txt': 'invalid-utf8',
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
