import { opendir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SkippedFile } from '../types.js';
import { describeError } from './errors.js';

export interface ScannedFile {
  /** Path from the scanned root, always with forward slashes. */
  relPath: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

export interface ScanOptions {
  /** Files larger than this are reported as skipped ('too-large'). Default 5 MB. */
  maxBytes?: number;
}

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const NOTE_EXTENSIONS = new Set(['.md', '.markdown', '.txt']);
const IGNORED_DIRS = new Set(['node_modules']);

export function isNotePath(name: string): boolean {
  return NOTE_EXTENSIONS.has(path.extname(name).toLowerCase());
}

/**
 * Lists the notes under `root` (which must exist and be listable, else it throws). Never throws for
 * a problem below the root: unreadable directories, dangling links, FIFOs and sockets named like
 * notes are reported in `skipped` instead, so one bad entry cannot stop an index run. Symlinks are followed once; a link back into an already visited
 * directory is ignored, which breaks loops.
 */
export async function scanFolder(
  root: string,
  opts: ScanOptions = {},
): Promise<{ files: ScannedFile[]; skipped: SkippedFile[] }> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const files: ScannedFile[] = [];
  const skipped: SkippedFile[] = [];
  const visitedDirs = new Set<string>();
  const absRoot = path.resolve(root);

  const relOf = (abs: string) => path.relative(absRoot, abs).split(path.sep).join('/');

  async function walk(dir: string): Promise<void> {
    let real: string;
    try {
      real = await realpath(dir);
    } catch (err) {
      if (dir === absRoot) throw err;
      skipped.push({ relPath: relOf(dir), reason: 'unreadable', detail: describeError(err) });
      return;
    }
    if (visitedDirs.has(real)) return;
    visitedDirs.add(real);

    let handle;
    try {
      handle = await opendir(dir);
    } catch (err) {
      if (dir === absRoot) throw err;
      skipped.push({ relPath: relOf(dir), reason: 'unreadable', detail: describeError(err) });
      return;
    }
    const subdirs: string[] = [];
    try {
      for await (const entry of handle) {
        if (entry.name.startsWith('.') || IGNORED_DIRS.has(entry.name)) continue;
        const abs = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          subdirs.push(abs);
          continue;
        }
        if (entry.isSymbolicLink()) {
          await visitLink(abs, subdirs);
          continue;
        }
        if (!isNotePath(entry.name)) continue;
        if (!entry.isFile()) {
          skipped.push({ relPath: relOf(abs), reason: 'unreadable', detail: 'not a regular file' });
          continue;
        }
        await addFile(abs);
      }
    } catch (err) {
      skipped.push({ relPath: relOf(dir), reason: 'unreadable', detail: describeError(err) });
    }
    for (const sub of subdirs.sort()) await walk(sub);
  }

  async function visitLink(abs: string, subdirs: string[]): Promise<void> {
    let target;
    try {
      target = await stat(abs);
    } catch (err) {
      if (isNotePath(abs)) skipped.push({ relPath: relOf(abs), reason: 'unreadable', detail: describeError(err) });
      return;
    }
    if (target.isDirectory()) subdirs.push(abs);
    else if (isNotePath(abs)) {
      if (target.isFile()) await addFile(abs);
      else skipped.push({ relPath: relOf(abs), reason: 'unreadable', detail: 'not a regular file' });
    }
  }

  async function addFile(abs: string): Promise<void> {
    try {
      const st = await stat(abs);
      if (st.size > maxBytes) {
        skipped.push({
          relPath: relOf(abs),
          reason: 'too-large',
          detail: `${st.size} bytes is over the ${maxBytes}-byte limit`,
        });
        return;
      }
      files.push({ relPath: relOf(abs), absPath: abs, size: st.size, mtimeMs: st.mtimeMs });
    } catch (err) {
      skipped.push({ relPath: relOf(abs), reason: 'unreadable', detail: describeError(err) });
    }
  }

  await walk(absRoot);
  files.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return { files, skipped };
}
