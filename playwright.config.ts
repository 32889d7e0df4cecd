import { defineConfig } from '@playwright/test';

// Browser mode against the real engine on the sample notes (see e2e/support/global-setup.ts), in the
// system Chromium: Playwright's own browser downloads are not reachable on the build machines.
const chromium = process.env.LOCI_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  fullyParallel: false,
  reporter: [['list']],
  // The empty-library server (A's) and the ~2,000-note library indexed once (only for the specs that use it).
  globalSetup: ['./e2e/support/global-setup.ts', './e2e/support/big-library-setup.ts'],
  use: { trace: 'retain-on-failure', viewport: { width: 1360, height: 860 } },
  projects: [
    {
      name: 'browser-mode',
      testMatch: /(browser-mode|engine-notices|embedding-models|graph-scale|ui-journeys|accessibility|deep-notes)\.spec\.ts/,
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: chromium,
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
        },
      },
    },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
});
