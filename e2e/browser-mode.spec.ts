import { expect, test } from '@playwright/test';
import { journey } from './support/journey.js';

// Browser mode (`loci serve`, started by e2e/support/global-setup.ts) with the real engine.
test('add a folder, ask, open a citation, a mind map and the graph', async ({ page }) => {
  const url = process.env.LOCI_E2E_URL;
  expect(url, 'global setup starts loci serve').toBeTruthy();
  await journey(page, 'browser', async () => {
    await page.goto(url!);
    // The token moves from the URL into sessionStorage.
    await expect(page).not.toHaveURL(/token=/);
  });
});

test('refuses a page without the token', async ({ page }) => {
  const url = new URL(process.env.LOCI_E2E_URL!);
  const res = await page.goto(`${url.origin}/`);
  expect(res?.status()).toBe(401);
});
