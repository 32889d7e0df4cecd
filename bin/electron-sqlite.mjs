// better-sqlite3 built for Electron, for `npm start`: the engine runs inside Electron, whose ABI differs from
// Node's, while the CLI and the tests need node_modules' own build. So Electron's build is fetched once (the
// project's prebuilt binary, by prebuild-install, as npm fetched the Node one) into a folder of its own, and
// the engine is pointed at it (LOCI_SQLITE_BINDING, read by main/engine/store/sqlite.ts). `npm run dist`
// rebuilds in place for the installers instead (docs/packaging.md).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Where Electron `version`'s build of better-sqlite3 is kept, per platform and architecture. */
export function electronSqliteBinding(version, { platform = process.platform, arch = process.arch, root } = {}) {
  const pkg = path.dirname(require.resolve('better-sqlite3/package.json'));
  const cache = root ?? path.join(pkg, '..', '.cache', 'loci');
  const { version: sqliteVersion } = require('better-sqlite3/package.json');
  const dir = path.join(cache, `better-sqlite3-${sqliteVersion}-electron-${version}-${platform}-${arch}`);
  return { dir, file: path.join(dir, 'build', 'Release', 'better_sqlite3.node') };
}

/** Resolves with the binding's path (fetched now if missing), or the reason it could not be had. */
export function ensureElectronSqlite(version, { log = (l) => process.stdout.write(l), root, mirror } = {}) {
  const { dir, file } = electronSqliteBinding(version, { root });
  if (existsSync(file)) return Promise.resolve({ binding: file });
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  copyFileSync(require.resolve('better-sqlite3/package.json'), path.join(partial, 'package.json'));
  log(`Fetching better-sqlite3 built for Electron ${version} (first start only)…`);
  const args = [require.resolve('prebuild-install/bin.js'), '--runtime', 'electron', '--target', version, '--arch', process.arch, '--platform', process.platform, '--verbose'];
  const env = { ...process.env, ...(mirror ? { npm_config_better_sqlite3_binary_host: mirror } : {}) };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: partial, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      log('\n');
      if (code === 0 && existsSync(path.join(partial, 'build', 'Release', 'better_sqlite3.node'))) {
        rmSync(dir, { recursive: true, force: true });
        renameSync(partial, dir);
        resolve({ binding: file });
        return;
      }
      rmSync(partial, { recursive: true, force: true });
      const lines = err.trim().split('\n').map((l) => l.replace(/^prebuild-install (warn|info|verb|http) /, '').trim());
      const why = lines.find((l) => /error|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|404|No prebuilt|abi/i.test(l)) || lines.at(-1) || `exit code ${code}`;
      resolve({ reason: `better-sqlite3 built for Electron ${version} could not be fetched (${why}); with a connection to github.com start again, or run \`npx @electron/rebuild -f -w better-sqlite3\` (which replaces the CLI's build; \`npm rebuild better-sqlite3\` puts it back).` });
    });
  });
}
