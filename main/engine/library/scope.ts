// A library folder's scope: `.gitignore`-style include and exclude globs (the `ignore` package, which
// implements git's matching rules). Excludes win; with includes, a note must match one of them.
import ignore from 'ignore';

export interface FolderScope {
  include: string[];
  exclude: string[];
}

export const EMPTY_SCOPE: FolderScope = { include: [], exclude: [] };

/** Trimmed, without blanks, comments and duplicates; throws naming a pattern that cannot be meant. */
export function checkScope(scope: FolderScope): FolderScope {
  const clean = (list: string[]) => [...new Set(list.map((p) => p.trim()).filter((p) => p !== '' && !p.startsWith('#')))];
  const checked = { include: clean(scope.include), exclude: clean(scope.exclude) };
  for (const p of [...checked.include, ...checked.exclude]) {
    if (p.length > 500 || p.includes('\0')) throw new Error(`Scope pattern '${p.slice(0, 40)}' is not usable (too long or holds a NUL byte).`);
  }
  return checked;
}

/** The scan's and the watcher's filter: true when `relPath` ('/'-separated; directories end in '/') is left out. */
export function scopeFilter(scope: FolderScope): ((relPath: string, isDir: boolean) => boolean) | undefined {
  if (scope.include.length === 0 && scope.exclude.length === 0) return undefined;
  const exclude = ignore().add(scope.exclude);
  const include = scope.include.length ? ignore().add(scope.include) : null;
  return (relPath, isDir) => {
    if (relPath === '' || relPath === '/') return false;
    if (exclude.ignores(relPath)) return true;
    // Directories are walked even when no include names them: a note below may match one.
    if (isDir || !include) return false;
    return !include.ignores(relPath);
  };
}
