import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { copySampleNotes, questionFor } from './notes.js';
import { expectAccessible } from './big.js';

// One user journey, shared by the browser-mode and Electron specs: add the sample notes, watch
// indexing finish and the watcher pick up a new note, ask, follow a citation to its lines, unfold a
// mind map, open the graph. Each step leaves a screenshot in e2e/screenshots/.
const SHOTS = path.resolve('e2e/screenshots');
mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });

export async function journey(page: Page, shotPrefix: string, open: () => Promise<unknown>): Promise<void> {
  const notes = copySampleNotes();
  // One file the indexer must skip, to see the reason in the UI.
  writeFileSync(path.join(notes, 'scan.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe, 0, 1]));
  // And one saved in Windows-1252 by an older editor, which it reads in that encoding and says so.
  writeFileSync(path.join(notes, 'cafe-1252.md'), Buffer.from('# Caf\xe9\n\nThe caf\xe9 serves cr\xe8me br\xfbl\xe9e on Thursdays.\n', 'latin1'));
  const { question } = questionFor(notes);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message));
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));

  await open();
  await expect(page.getByRole('heading', { name: 'Welcome to Loci' })).toBeVisible();
  await expect(page.getByText('No notes folder yet')).toBeVisible();
  await expect(page.getByLabel('Folder path')).toBeFocused();
  await expectAccessible(page, 'onboarding: choose a folder');
  await shot(page, `${shotPrefix}-01-empty-library`);

  await test.step('first run: choose the folder, watch it index, see the model offer', async () => {
    await page.getByLabel('Folder path').fill(notes);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const done = page.getByTestId('onboarding').getByTestId('index-report');
    await expect(done).toBeVisible({ timeout: 90_000 });
    await expect(done).toContainText(/\d+ notes?, [\d,]+ facts?/);
    const offer = page.getByTestId('model-step');
    await expect(offer).toBeVisible();
    // The recommended models with what a person needs to decide: size, memory, licence, and a download.
    await expect(offer.getByTestId('model-offer').first()).toContainText(/Download/);
    await expect(offer.getByTestId('model-offer').first()).toContainText(/Licence/);
    await expect(offer.getByTestId('model-offer').first()).toContainText(/Memory/);
    await expectAccessible(page, 'onboarding: indexed, model offer');
    await shot(page, `${shotPrefix}-01b-onboarding-models`);
    await offer.getByRole('button', { name: 'Go to my library' }).click();
  });

  await test.step('the library shows the folder and its report', async () => {
    const card = page.getByTestId('folder-card').filter({ hasText: notes });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('index-report')).toBeVisible({ timeout: 90_000 });
    await expect(card.getByText(/Indexed in [\d.]+ s: \d+ changed/)).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Notes/ })).toBeVisible();
    await card.getByText(/1 skipped file/).click();
    await expect(card.getByRole('row', { name: /scan\.md/ })).toContainText(/binary|invalid-utf8/);
    await card.getByText(/1 note not in UTF-8/).click();
    await expect(card.getByRole('row', { name: /cafe-1252\.md/ })).toContainText('windows-1252');
    await shot(page, `${shotPrefix}-02-indexed`);
  });

  await test.step('the watcher picks up a new note', async () => {
    const rows = page.locator('table tbody tr');
    const before = await page.getByRole('heading', { name: /^Notes/ }).textContent();
    writeFileSync(path.join(notes, 'e2e-added-note.md'), '# Added by the e2e test\n\nThe watcher should index this note within seconds.\n');
    await expect(page.getByText('e2e-added-note.md')).toBeVisible({ timeout: 30_000 });
    expect(await page.getByRole('heading', { name: /^Notes/ }).textContent()).not.toBe(before);
    expect(await rows.count()).toBeGreaterThan(1);
  });

  await test.step('ask a question and get a cited answer', async () => {
    await page.getByRole('button', { name: /^Ask/ }).first().click();
    await page.getByLabel('Question').fill(question);
    await page.getByLabel('Question').press('Enter');
    await page.waitForTimeout(500);
    expect(pageErrors).toEqual([]);
    const answer = page.getByTestId('answer').last();
    await expect(answer.getByTestId('citation').first()).toBeVisible();
    // Extractive here (no model installed): the UI must say so.
    await expect(answer.getByText('Extractive', { exact: true })).toBeVisible();
    await expect(answer.getByText(/extractive/).first()).toBeVisible();
    await shot(page, `${shotPrefix}-03-answer`);
  });

  await test.step('the conversation is kept in history', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect(page.getByTestId('answer')).toHaveCount(0);
    await page.getByRole('complementary', { name: 'Conversation history' }).getByRole('button', { name: question.slice(0, 20) }).first().click();
    await expect(page.getByTestId('answer').last().getByTestId('citation').first()).toBeVisible();
  });

  await test.step('a citation opens the note at the cited lines', async () => {
    const first = page.getByTestId('answer').last().getByTestId('citation').first();
    const source = await first.locator('span span').last().textContent();
    const m = /lines? (\d+)(?:–(\d+))?/.exec(source ?? '');
    expect(m, `citation shows its line range: ${source}`).toBeTruthy();
    await first.click();
    const viewer = page.getByTestId('note-viewer');
    await expect(viewer).toBeVisible();
    // Rendered Markdown: the block holding the cited lines is highlighted.
    const block = viewer.getByTestId('note-rendered').locator('[data-cited]').first();
    await expect(block).toBeVisible();
    expect(Number(await block.getAttribute('data-line'))).toBeLessThanOrEqual(Number(m![2] ?? m![1]));
    expect(Number(await block.getAttribute('data-line-end'))).toBeGreaterThanOrEqual(Number(m![1]));
    await shot(page, `${shotPrefix}-04-citation`);
    // Raw lines: exactly the cited line numbers.
    await viewer.getByRole('button', { name: 'Raw lines' }).click();
    const cited = viewer.getByTestId('note-raw').locator('[data-cited]');
    await expect(cited.first()).toBeVisible();
    await expect(cited.first()).toHaveAttribute('data-line', m![1]!);
    await expect(cited.first()).toBeInViewport();
    await viewer.getByRole('button', { name: 'Raw lines' }).click();
  });

  await test.step("open the cited note's mind map and expand a node", async () => {
    await page.getByTestId('note-viewer').getByRole('button', { name: 'Mind map' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('note-viewer')).toBeHidden();
    const nodes = page.getByTestId('mm-node');
    await expect(nodes.first()).toBeVisible();
    const before = await nodes.count();
    const folded = page.locator('[data-testid="mm-node"][aria-expanded="false"]').first();
    await expect(folded).toBeVisible();
    await folded.click();
    await expect.poll(() => nodes.count()).toBeGreaterThan(before);
    await expect(page.getByTestId('mm-details')).toContainText(/route|topic|fact/);
    // Search finds a node inside a folded branch and unfolds the way to it.
    const hidden = await page.evaluate(() => [...document.querySelectorAll('[data-testid="mm-node"][aria-expanded="false"]')].length);
    expect(hidden).toBeGreaterThanOrEqual(0);
    await page.getByLabel('Search this mind map').fill('the');
    await expect(page.locator('[data-testid="mm-node"][data-match]').first()).toBeVisible();
    await page.getByLabel('Search this mind map').fill('');
    await shot(page, `${shotPrefix}-05-mindmap`);
  });

  await test.step('open the graph', async () => {
    await page.getByRole('button', { name: /^Graph/ }).first().click();
    await expect(page.getByTestId('graph-canvas')).toBeVisible();
    await expect(page.getByText(/[1-9][\d,]* nodes, \d[\d,]* links shown/)).toBeVisible();
    await page.waitForTimeout(2500);
    await shot(page, `${shotPrefix}-06-graph`);
  });

  await test.step('settings and the model catalogue', async () => {
    await page.getByRole('button', { name: /^Settings/ }).first().click();
    await expect(page.getByRole('heading', { name: 'Language model' })).toBeVisible();
    await expect(page.getByRole('cell', { name: /stories260K/ })).toBeVisible();
    await expect(page.getByRole('row', { name: /documents/ })).toBeVisible();
    await shot(page, `${shotPrefix}-07-settings`);
    await page.getByRole('button', { name: /^Graph/ }).first().click();
  });

  await test.step('keyboard: Ctrl+number switches views', async () => {
    await page.keyboard.press('Control+2');
    await expect(page.getByRole('heading', { name: 'Ask' })).toBeVisible();
    await page.keyboard.press('Control+4');
    await expect(page.getByRole('heading', { name: 'Graph' })).toBeVisible();
  });

  await test.step('dark theme', async () => {
    await page.getByRole('button', { name: 'Toggle light or dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await shot(page, `${shotPrefix}-08-graph-dark`);
  });
  expect(pageErrors).toEqual([]);
}
