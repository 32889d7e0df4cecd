// Indexes as earlier builds of main left them, made from those builds' own migration SQL read out of
// git history (`git show <commit>:main/engine/store/migrations/…`), applied as their migrate() applied
// it: each in order, then user_version set to its number. Nothing is committed but this recipe.
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { REPO_ROOT } from '../fixtures/paths.js';

const DIR = 'main/engine/store/migrations';

export interface LegacyMigration {
  version: number;
  name: string;
  sql: string;
}

function gitShow(commit: string, file: string): string {
  return execFileSync('git', ['show', `${commit}:${file}`], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Null (with the reason) when this checkout has no git history to read the old builds from. */
export function legacyHistoryMissing(commit: string): string | null {
  try {
    gitShow(commit, `${DIR}/index.ts`);
    return null;
  } catch (err) {
    return `git history with ${commit} is not available here (${(err as Error).message.split('\n')[0]})`;
  }
}

/** The migrations `commit` shipped, in its order, with the SQL each of its files held then. */
export function legacyMigrations(commit: string): LegacyMigration[] {
  const index = gitShow(commit, `${DIR}/index.ts`);
  const files = new Map([...index.matchAll(/import (\w+) from '\.\/([\w-]+)\.js';/g)].map((m) => [m[1]!, `${m[2]!}.ts`]));
  return [...index.matchAll(/\{ version: (\d+), name: '([^']+)', sql: (\w+) \}/g)].map((m) => {
    const source = gitShow(commit, `${DIR}/${files.get(m[3]!)!}`);
    const sql = /export default \/\* sql \*\/ `([\s\S]*)`;/.exec(source)?.[1];
    if (sql === undefined) throw new Error(`${commit}: no SQL in ${files.get(m[3]!)}`);
    return { version: Number(m[1]), name: m[2]!, sql };
  });
}

/** Writes `file` as `commit`'s build would have created it (WAL, foreign keys, its migrations). */
export function buildLegacyIndex(commit: string, file: string, migrations = legacyMigrations(commit)): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    for (const m of migrations) {
      db.transaction(() => {
        db.exec(m.sql);
        db.pragma(`user_version = ${m.version}`);
      })();
    }
  } finally {
    db.close();
  }
}
