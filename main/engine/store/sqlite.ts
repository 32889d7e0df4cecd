// Every SQLite connection the engine opens, with the native binding the running process needs: under
// `npm start` the engine runs inside Electron, whose ABI differs from Node's, and reads the Electron build
// of better-sqlite3 that bin/electron-sqlite.mjs fetched (LOCI_SQLITE_BINDING), leaving node_modules' own
// build to the CLI and the tests. Packaged apps ship a build rebuilt for Electron and leave the variable unset.
import Database from 'better-sqlite3';

export type SqliteOptions = Omit<Database.Options, 'nativeBinding'>;

export function openSqlite(file: string, options: SqliteOptions = {}): Database.Database {
  const binding = process.env.LOCI_SQLITE_BINDING;
  return new Database(file, binding ? { ...options, nativeBinding: binding } : options);
}
