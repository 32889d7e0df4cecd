import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { journey } from './support/journey.js';

// The desktop app itself, same journey as browser mode, over the built bundles (out/main, out/engine:
// no tsx at run time). Runs wherever the Electron binary is installed — on a headless Linux box under
// `xvfb-run -a npx playwright test --project electron` — and is skipped (with the reason printed)
// where it is not, as on the project's build machines.
const require = createRequire(import.meta.url);

function electronMissing(): string | null {
  try {
    const bin = require('electron') as unknown as string;
    return existsSync(bin) ? null : `the Electron binary ${bin} does not exist`;
  } catch (err) {
    return `the Electron binary is not installed (${(err as Error).message.split('\n')[0]})`;
  }
}

const missing = electronMissing();
if (missing) console.log(`[electron e2e] skipped: ${missing}`);
test.skip(missing !== null, missing ?? '');

let app: ElectronApplication;

test.beforeAll(() => {
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
  expect(r.status).toBe(0);
  expect(spawnSync(process.execPath, ['main/app/build.mjs'], { stdio: 'inherit' }).status).toBe(0);
  expect(existsSync('out/engine/engine-process.js'), 'the engine bundle the shell starts').toBe(true);
});

test.afterAll(async () => {
  await app?.close();
});

test('desktop app: add a folder, ask, open a citation, a mind map and the graph', async () => {
  const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-electron-')), 'loci.db');
  app = await electron.launch({ args: [path.resolve('.')], env: { ...process.env, LOCI_DB: db } as Record<string, string> });
  const page = await app.firstWindow();
  await journey(page, 'electron', async () => {
    await expect(page).toHaveURL('app://loci/index.html');
    // The renderer has the contract client and nothing else from the preload.
    expect(await page.evaluate(() => Object.keys((window as unknown as { loci: object }).loci).sort())).toEqual(['call', 'on']);
    expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
  });
});

test('desktop app: the window cannot navigate away or open windows', async () => {
  const page = await app.firstWindow();
  await page.evaluate(() => {
    window.open('https://example.org/');
    window.location.href = 'file:///etc/passwd';
  });
  await page.waitForTimeout(500);
  expect(app.windows()).toHaveLength(1);
  await expect(page).toHaveURL('app://loci/index.html');
});
