import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
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
      readAs: null,
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

  // Notes written by us, saved in the legacy encodings editors still write: each must read back as written.
  it.each([
    ['latin1.md', 'Café crème brûlée, served at nine. Déjà vu « encore ».\n', 'windows-1252'],
    ['gbk.txt', '# 会议记录\n\n港口负责人住在卑尔根。下周一上午九点开会，讨论预算。\n', 'gb18030'],
    ['big5.txt', '港口負責人住在卑爾根。下週一上午九點開會，討論預算。\n', 'big5'],
    ['sjis.txt', '港の責任者はベルゲンに住んでいます。来週の月曜日に会議があります。\n', 'shift_jis'],
    ['cp1251.txt', 'Начальник порта живёт в Бергене. Собрание в понедельник.\n', 'windows-1251'],
  ])('reads %s, not UTF-8, in the encoding its bytes show (%s)', async (name, text, encoding) => {
    const r = await readNote(await file(name, iconv.encode(text, encoding)));
    if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
    expect(r.content).toBe(text);
    expect(r.readAs?.encoding.toLowerCase()).toBe(encoding);
    expect(r.readAs?.detail).toMatch(/^not UTF-8; its bytes look like .+, \d+% sure$/);
  });

  it.each([
    ['utf-16le', [0xff, 0xfe]],
    ['utf-16be', [0xfe, 0xff]],
  ] as const)('reads a %s file by its byte-order mark, though its bytes hold NULs', async (encoding, bom) => {
    const text = '# Notepad\r\nSaved as "Unicode" — 港口.\r\n';
    const r = await readNote(await file(`${encoding}.txt`, Buffer.concat([Buffer.from(bom), iconv.encode(text, encoding, { addBOM: false })])));
    if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
    expect(r.content).toBe('# Notepad\nSaved as "Unicode" — 港口.\n');
    expect(r.readAs).toEqual({ encoding: encoding.toUpperCase(), detail: 'byte-order mark' });
  });

  it('keeps a UTF-8 note with a stray byte as UTF-8, the byte shown as U+FFFD, rather than misread every other letter', async () => {
    const bytes = Buffer.concat([Buffer.from('Grüße aus München — “quoted”, 東京.\n'), Buffer.from([0xe9]), Buffer.from(' after a stray byte.\n')]);
    const r = await readNote(await file('stray.md', bytes));
    if (!r.ok) throw new Error(`${r.reason}: ${r.detail}`);
    expect(r.content).toBe('Grüße aus München — “quoted”, 東京.\n\uFFFD after a stray byte.\n');
    expect(r.readAs).toEqual({ encoding: 'UTF-8', detail: 'one sequence that is not UTF-8, shown as �' });
  });

  it("reports bytes whose encoding cannot be told as 'invalid-utf8', with the best guess", async () => {
    // Bytes no code page chardet knows reads as words (and a two-byte file it takes for UTF-32).
    const noise = Buffer.from([0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x0a]);
    const r = await readNote(await file('noise.md', noise));
    expect(r).toMatchObject({ ok: false, reason: 'invalid-utf8' });
    if (!r.ok) expect(r.detail).toMatch(/^not UTF-8, and its encoding could not be told \(best guess .+, \d+% sure\)$/);
    expect(await readNote(await file('two-bytes.md', Buffer.from([0x81, 0x0a])))).toMatchObject({ ok: false, reason: 'invalid-utf8' });
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

describe('a folder with a binary file, a 50 MB file, an unreadable file and a Latin-1 note', () => {
  it('yields the good notes and exactly those three skips, with reasons', async () => {
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
      expect(read).toEqual(['good.md', 'latin1.txt']);
      expect(Object.fromEntries(all.map((s) => [s.relPath, s.reason]))).toEqual({
        'binary.md': 'binary',
        'huge.md': 'too-large',
        'unreadable.md': 'unreadable',
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
