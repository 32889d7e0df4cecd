// The one containment rule for library folders, on real paths (links resolved), used by the scan, the
// reader, the watcher and the note viewer: a path is part of a folder only when its real path is the
// folder's real path or lies below it. Comparing the spelled paths is not enough: `notes/passwd.md`
// may be a link to /etc/passwd.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';

/** True when `real` (already a real path) is `realRoot` or lies below it. */
export function isInsideReal(realRoot: string, real: string): boolean {
  if (real === realRoot) return true;
  const prefix = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  return real.startsWith(prefix);
}

/**
 * The real path of `target` when it stays inside `root` (whose links are resolved too), else null.
 * Throws what realpath throws for a missing or unreadable target, so callers can tell "gone" from "outside".
 */
export async function realPathInside(root: string, target: string): Promise<string | null> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(target)]);
  return isInsideReal(realRoot, real) ? real : null;
}

/** A caller asking for it made a mistake a person can read (answered as invalid, not as a 500). */
export class OutsideLibraryError extends UserError {
  constructor(what: string) {
    super(`${what} leads outside its library folder; Loci follows links only within the folder.`, 'invalid');
    this.name = 'OutsideLibraryError';
  }
}
