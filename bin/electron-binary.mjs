// Where `npm start` gets the Electron binary: installed already, or fetched on first start by Electron's own
// installer (node_modules/electron/install.js, which npm never runs: package.json's allowScripts keeps it
// off for CI and the build machines); or why not, in words, so start can say it and serve browser mode.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The binary's path when it is installed, else null. */
export function installedElectron() {
  try {
    const bin = require('electron');
    return typeof bin === 'string' && existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

/**
 * What start does about Electron: 'use' it, 'install' it first, or 'browser' with the reason. A download is
 * skipped when asked (--browser) or when ELECTRON_SKIP_BINARY_DOWNLOAD is set (CI, build machines).
 */
export function electronPlan({ browser, installed, env }) {
  if (browser) return { action: 'browser', reason: '--browser was given.' };
  if (installed) return { action: 'use', bin: installed };
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return { action: 'browser', reason: 'the Electron binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not downloaded (unset it to fetch it on the next start).' };
  }
  return { action: 'install' };
}

/** Runs Electron's installer with a progress line; resolves with the binary, or the reason it failed. */
export function installElectron(log = (line) => process.stdout.write(line)) {
  const dir = path.dirname(require.resolve('electron/package.json'));
  const { version } = require('electron/package.json');
  const mirror = process.env.ELECTRON_MIRROR ?? 'https://github.com/electron/electron/releases/download/';
  log(`Downloading Electron ${version} (about 100 MB, first start only) from ${new URL(mirror).host}…`);
  const started = Date.now();
  const ticker = setInterval(() => log(` ${Math.round((Date.now() - started) / 1000)} s…`), 5000);
  return new Promise((resolve) => {
    // The caller has decided to install, so a skip flag left in the shell (from `npm ci` here) must not turn
    // Electron's installer into a silent no-op.
    const env = { ...process.env };
    delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
    const child = spawn(process.execPath, [path.join(dir, 'install.js')], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      clearInterval(ticker);
      log('\n');
      const bin = installedElectron();
      if (code === 0 && bin) resolve({ bin });
      else {
        const why = err.trim().split('\n').find((l) => /Error|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|fetch failed|HTTP/i.test(l)) || err.trim().split('\n')[0] || `exit code ${code}, no binary`;
        resolve({ reason: `downloading Electron ${version} from ${new URL(mirror).host} failed (${why.trim()}); check the connection or set ELECTRON_MIRROR, then start again.` });
      }
    });
  });
}
