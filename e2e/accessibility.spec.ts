import { expect, test } from '@playwright/test';
import { expectAccessible, needBigLibrary, openBig, shot } from './support/big.js';

// axe-core over every view of the app on the ~2,000-note library (generated from the repo's notes), in light and dark themes, and over
// the overlays (quick switcher, note viewer). No serious or critical violations allowed.
needBigLibrary();

test('every view passes axe (no serious or critical violations)', async ({ page }) => {
  test.setTimeout(420_000);
  await openBig(page);
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => localStorage.setItem('loci.theme', t), theme);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.getByTestId('documents-table')).toBeVisible();
    await expectAccessible(page, `library (${theme})`);

    await page.keyboard.press('Control+2');
    await expect(page.getByRole('heading', { name: 'Ask' })).toBeVisible();
    await page.getByLabel('Question').fill('Who is Mara Lindqvist?');
    await page.getByLabel('Question').press('Enter');
    await expect(page.getByTestId('answer').last().getByTestId('citation').first()).toBeVisible({ timeout: 120_000 });
    // With the passages the answer was drawn from open, so they are checked too.
    await page.getByTestId('answer').last().getByTestId('answer-passages').locator('summary').click();
    await expect(page.getByTestId('answer').last().getByTestId('passage').first()).toBeVisible();
    await expectAccessible(page, `ask with an answer (${theme})`);

    await page.getByTestId('answer').last().getByTestId('citation').first().click();
    await expect(page.getByTestId('note-viewer')).toBeVisible();
    await expect(page.getByTestId('note-rendered')).toBeVisible();
    await expectAccessible(page, `note viewer (${theme})`);
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+3');
    await expect(page.getByTestId('mm-node').first()).toBeVisible();
    await expectAccessible(page, `mind map (${theme})`);

    await page.keyboard.press('Control+4');
    await expect(page.getByTestId('graph-overview')).toBeVisible();
    await expect(page.getByTestId('graph-summary')).toHaveText(/[1-9][\d,]* clusters/);
    await expectAccessible(page, `graph overview (${theme})`);
    await page.getByTestId('graph-cluster').first().focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('graph-note').first()).toBeVisible();
    await expectAccessible(page, `graph with a cluster opened (${theme})`);
    await shot(page, `a11y-graph-cluster-${theme}`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('graph-overview')).not.toHaveAttribute('data-open');

    await page.keyboard.press('Control+5');
    await expect(page.getByRole('heading', { name: 'Language model' })).toBeVisible();
    await expectAccessible(page, `settings (${theme})`);

    await page.keyboard.press('Control+k');
    await expect(page.getByTestId('quick-switcher')).toBeVisible();
    await page.keyboard.type('index');
    await expectAccessible(page, `quick switcher (${theme})`);
    await shot(page, `a11y-switcher-${theme}`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('quick-switcher')).toBeHidden();
  }
});
