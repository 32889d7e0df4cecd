import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFolder } from '../../main/engine/ingest/scan.js';
import { FIXTURE_NOTES } from '../fixtures/paths.js';

const isRoot = process.getuid?.() === 0;

describe('scanFolder on the fixture notes', () => {
  it('finds Markdown and text notes, recursively, with forward-slash relative paths in order', async () => {
    const { files, skipped } = await scanFolder(FIXTURE_NOTES);
    const paths = files.map((f) => f.relPath);
    expect(paths).toContain('sub/other-note.md');
    expect(paths).toContain('plain.txt');
    expect(paths).toEqual([...paths].sort());
    expect(skipped).toEqual([]);
    for (const f of files) {
      expect(path.isAbsolute(f.absPath)).toBe(true);
      expect(f.size).toBeGreaterThan(0);
      expect(f.mtimeMs).toBeGreaterThan(0);
    }
  });
});

describe('scanFolder on a folder with traps', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'loci-scan-'));
    await mkdir(path.join(root, '.obsidian'));
    await writeFile(path.join(root, '.obsidian/hidden.md'), '# hidden');
    await writeFile(path.join(root, '.hidden-note.md'), '# hidden');
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git/HEAD.md'), 'ref');
    await mkdir(path.join(root, 'node_modules/pkg'), { recursive: true });
    await writeFile(path.join(root, 'node_modules/pkg/README.md'), '# dependency');
    await mkdir(path.join(root, 'deep/deeper'), { recursive: true });
    await writeFile(path.join(root, 'deep/deeper/UPPER.MD'), '# upper case extension');
    await writeFile(path.join(root, 'deep/long.markdown'), '# markdown extension');
    await writeFile(path.join(root, 'notes.txt'), 'plain');
    await writeFile(path.join(root, 'picture.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    // A loop: deep/deeper/back points at the root again.
    await symlink(root, path.join(root, 'deep/deeper/back'));
    await symlink(path.join(root, 'no-such-file.md'), path.join(root, 'dangling.md'));
    execFileSync('mkfifo', [path.join(root, 'pipe.md')]);
    // 50 MB, sparse: costs no disk and no time, but stat reports the full size.
    await writeFile(path.join(root, 'big.md'), '');
    await truncate(path.join(root, 'big.md'), 50 * 1024 * 1024);
    await mkdir(path.join(root, 'locked'));
    await writeFile(path.join(root, 'locked/secret.md'), '# locked away');
    await chmod(path.join(root, 'locked'), 0o000);
  });

  afterAll(async () => {
    await chmod(path.join(root, 'locked'), 0o755);
    await rm(root, { recursive: true, force: true });
  });

  it('skips hidden entries, .git and node_modules, takes .md/.markdown/.txt in any case, survives a symlink loop', async () => {
    const { files } = await scanFolder(root);
    const paths = files.map((f) => f.relPath);
    expect(paths).toContain('deep/deeper/UPPER.MD');
    expect(paths).toContain('deep/long.markdown');
    expect(paths).toContain('notes.txt');
    expect(paths.some((p) => p.includes('.obsidian') || p.includes('.git') || p.includes('node_modules'))).toBe(false);
    expect(paths).not.toContain('.hidden-note.md');
    expect(paths).not.toContain('picture.png');
    // The loop is entered at most once, so no file shows up twice.
    expect(new Set(files.map((f) => f.absPath)).size).toBe(files.length);
    expect(paths.filter((p) => p.endsWith('UPPER.MD'))).toHaveLength(1);
  });

  it('reports a 50 MB file as too-large, a dangling link and a FIFO as unreadable', async () => {
    const { files, skipped } = await scanFolder(root);
    const byPath = new Map(skipped.map((s) => [s.relPath, s]));
    expect(byPath.get('big.md')?.reason).toBe('too-large');
    expect(byPath.get('dangling.md')?.reason).toBe('unreadable');
    expect(byPath.get('dangling.md')?.detail).toMatch(/ENOENT/);
    expect(byPath.get('pipe.md')).toEqual({ relPath: 'pipe.md', reason: 'unreadable', detail: 'not a regular file' });
    expect(files.map((f) => f.relPath)).not.toContain('big.md');
  });

  it('honours a custom size limit', async () => {
    const { skipped } = await scanFolder(root, { maxBytes: 10 });
    const tooLarge = skipped.filter((s) => s.reason === 'too-large').map((s) => s.relPath);
    expect(tooLarge).toContain('deep/long.markdown');
  });

  it('reports a directory it may not list instead of throwing (root ignores permissions, so there it is listed)', async () => {
    const { files, skipped } = await scanFolder(root);
    if (isRoot) {
      // chmod 000 does not stop root (CAP_DAC_OVERRIDE): the directory is read like any other.
      expect(files.map((f) => f.relPath)).toContain('locked/secret.md');
    } else {
      expect(skipped.find((s) => s.relPath === 'locked')?.reason).toBe('unreadable');
    }
  });

  it('throws when the root itself does not exist', async () => {
    await expect(scanFolder(path.join(root, 'missing-root'))).rejects.toThrow(/ENOENT/);
  });
});
