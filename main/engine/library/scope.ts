// A library folder's scope: `.gitignore`-style include and exclude globs (the `ignore` package, which
// implements git's matching rules). Excludes win; with includes, a note must match one of them.
import ignore from 'ignore';
import { UserError } from '../errors.js';

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
    if (p.length > 500 || p.includes('\0')) throw new UserError(`Scope pattern '${p.slice(0, 40)}' is not usable (too long or holds a NUL byte).`);
    const problem = globProblem(p);
    if (problem) throw new UserError(`Scope pattern '${p}' is not a valid glob: ${problem}. Nothing was changed.`);
  }
  return checked;
}

/**
 * What makes a pattern no glob at all, or null. `ignore` takes anything and reads a broken bracket as a
 * pattern that matches nothing, so an include like `[z-a` silently left every note out.
 */
export function globProblem(p: string): string | null {
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      if (i === p.length - 1) return 'it ends with a lone backslash';
      i++;
      continue;
    }
    if (c !== '[') continue;
    let j = i + 1;
    if (p[j] === '!' || p[j] === '^') j++;
    if (p[j] === ']') j++; // a leading ']' is a member
    const start = j;
    while (j < p.length && p[j] !== ']') j++;
    if (j >= p.length) return `the '[' at position ${i + 1} is never closed with ']'`;
    const body = p.slice(start, j);
    if (body === '' && start === i + 1) return `'[]' matches no character`;
    for (const m of body.matchAll(/(.)-(.)/gu)) {
      if (m[1]! > m[2]!) return `the range '${m[0]}' runs backwards`;
    }
    i = j;
  }
  return null;
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
