// Completion for a typed folder path (browser mode has no native folder picker): the existing
// directories that start with what was typed. Reads one directory, lists directories only, never
// follows a link that leads to a file or nowhere, and says clearly when a directory cannot be read.
import { opendir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

export interface PathCompletion {
  /** The directory that was listed. */
  dir: string;
  /** Absolute paths of matching directories, sorted, at most `limit`. */
  matches: string[];
  /** More directories matched than were returned. */
  truncated: boolean;
}

const LIMIT = 20;

/** `prefix` is absolute or starts with '~'; a trailing separator lists the directory itself. */
export async function completePath(prefix: string, opts: { hidden?: boolean; limit?: number } = {}): Promise<PathCompletion> {
  const limit = opts.limit ?? LIMIT;
  const typed = prefix.startsWith('~') ? path.join(homedir(), prefix.slice(1)) : prefix;
  if (!path.isAbsolute(typed)) throw new Error(`'${prefix}' is not an absolute path; start with '/' (or '~' for your home folder).`);
  const endsWithSep = /[\\/]$/.test(typed);
  const dir = endsWithSep ? path.resolve(typed) : path.dirname(path.resolve(typed));
  const stem = endsWithSep ? '' : path.basename(typed);
  const showHidden = opts.hidden ?? stem.startsWith('.');

  let handle;
  try {
    handle = await opendir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { dir, matches: [], truncated: false };
    throw new Error(`${dir} cannot be read (${code ?? String(err)}).`);
  }
  const matches: string[] = [];
  let truncated = false;
  const lowerStem = stem.toLowerCase();
  for await (const entry of handle) {
    if (!showHidden && entry.name.startsWith('.')) continue;
    if (!entry.name.toLowerCase().startsWith(lowerStem)) continue;
    const abs = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    // A link is offered only when it leads to a directory; what it points at is not listed here.
    if (entry.isSymbolicLink()) isDir = await stat(abs).then((s) => s.isDirectory(), () => false);
    if (!isDir) continue;
    if (matches.length >= limit * 10) {
      truncated = true;
      break;
    }
    matches.push(abs);
  }
  matches.sort((a, b) => a.localeCompare(b));
  if (matches.length > limit) truncated = true;
  return { dir, matches: matches.slice(0, limit), truncated };
}
