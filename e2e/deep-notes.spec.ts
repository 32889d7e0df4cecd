import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServer } from './support/start-server.js';

// The red-team's notes in a real browser: a 2 KB note holding a 1,000-level list blanked the whole UI
// ("Maximum call stack size exceeded") and one of 20,000 levels hung the tab for minutes. Each is opened
// in the note viewer of its own server over a library the bundled CLI indexed; the note shows, its last
// word included, and the rest of the app keeps working.
const NOTES: Record<string, string> = {
  'deep-1000.md': `# Deep thousand\n\n${'- '.repeat(1000)}bottom of the thousand\n`,
  'deep-20000.md': `# Deep twenty thousand\n\n${'- '.repeat(20_000)}bottom of the twenty thousand\n`,
  'quotes-1000.md': `# Quotes thousand\n\n${'> '.repeat(1000)}bottom of the quotes\n`,
  'plain.md': '# Plain note\n\nAn ordinary note beside the deep ones.\n',
};

async function open(page: Page, query: string) {
  await page.keyboard.press('Control+k');
  const dialog = page.getByTestId('quick-switcher');
  await expect(dialog).toBeVisible();
  const input = dialog.getByRole('combobox');
  await expect(input).toBeFocused();
  await page.keyboard.type(query);
  await expect(input).toHaveValue(query);
  await expect(dialog.getByRole('option').first()).toContainText(query);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

test('notes nested 1,000 and 20,000 levels deep open in the note viewer, and the app keeps working', async ({ page }) => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-deep-'));
  const notes = path.join(work, 'notes');
  mkdirSync(notes);
  for (const [name, text] of Object.entries(NOTES)) writeFileSync(path.join(notes, name), text);
  const db = path.join(work, 'index.db');
  const index = spawnSync(process.execPath, ['out/engine/loci.js', 'index', notes, '--db', db], { encoding: 'utf8' });
  expect(index.status, index.stderr).toBe(0);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  const server = await startServer([path.resolve('out/engine/loci.js'), 'serve', '--db', db, '--port', '0', '--static', path.resolve('out/renderer'), '--url-uses', '4'], { LOCI_DB: db });
  try {
    await page.goto(server.url);
    await expect(page.getByTestId('folder-card')).toContainText(notes);
    for (const [query, last] of [
      ['deep-1000', 'bottom of the thousand'],
      ['deep-20000', 'bottom of the twenty thousand'],
      ['quotes-1000', 'bottom of the quotes'],
    ] as const) {
      await open(page, query);
      const viewer = page.getByTestId('note-viewer');
      await expect(viewer.getByTestId('note-rendered')).toContainText(last);
      const depth = await viewer.getByTestId('note-rendered').evaluate((el) => {
        let max = 0;
        for (const e of el.querySelectorAll('li, blockquote')) {
          let d = 0;
          for (let p: Element | null = e; p && p !== el; p = p.parentElement) if (p.matches('ul, ol, blockquote')) d++;
          max = Math.max(max, d);
        }
        return max;
      });
      expect(depth).toBeGreaterThan(3);
      expect(depth).toBeLessThanOrEqual(40);
      await page.keyboard.press('Escape');
    }
    // The app is still whole: another note opens, another view shows.
    await open(page, 'plain');
    await expect(page.getByTestId('note-viewer').getByTestId('note-rendered')).toContainText('An ordinary note beside the deep ones.');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+2');
    await expect(page.getByRole('heading', { name: /^Ask/ }).first()).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await server.stop();
  }
});
