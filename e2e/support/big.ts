// Shared by the specs that run on the ~2,000-note library (see big-library-setup.ts).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

// LOCI_E2E_SHOTS puts them elsewhere (e.g. outside the checkout, to look at).
export const SHOTS = path.resolve(process.env.LOCI_E2E_SHOTS ?? 'e2e/screenshots');
mkdirSync(SHOTS, { recursive: true });

export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

/** Fails the calling spec early when the big-library global setup did not run (it always can: the data is in the repo). */
export function needBigLibrary(): void {
  test.beforeAll(() => expect(process.env.LOCI_E2E_BIG_URL, 'the big-library global setup did not run').toBeTruthy());
}


export async function openBig(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.stack ?? e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(process.env.LOCI_E2E_BIG_URL!);
  await expect(page.getByRole('heading', { name: 'Library' })).toBeVisible();
  return errors;
}

/** axe over the page as it stands: no serious or critical violation (the others are printed). */
export async function expectAccessible(page: Page, view: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = result.violations.filter((v) => !bad.includes(v));
  console.log(`[axe] ${view}: ${result.passes.length} rules pass, ${bad.length} serious/critical, ${minor.length} minor${minor.length ? ` (${minor.map((v) => v.id).join(', ')})` : ''}`);
  expect(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`),
    `axe on ${view}`,
  ).toEqual([]);
}
