import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { buildExtraFolder } from './support/big-library.js';
import { needBigLibrary, openBig, shot } from './support/big.js';

// Journeys over the ~2,000-note library generated from the repo's sample notes and fixtures, indexed
// once by the global setup: finding a note, reading it with its cited lines, related notes, the local
// and global graph, the Library's per-note status, cancel, scopes and removal, and the settings form.
needBigLibrary();

const VIEWS = ['Library', 'Ask', 'Mind map', 'Graph', 'Settings'] as const;
const QUESTION = 'How do I roast coffee in a popper?';

async function switchTo(page: Page, query: string, key: 'Enter' | 'Alt+Enter' = 'Enter') {
  await page.keyboard.press('Control+k');
  const dialog = page.getByTestId('quick-switcher');
  await expect(dialog).toBeVisible();
  await page.keyboard.type(query);
  await expect(dialog.getByRole('option').first()).toBeVisible();
  await page.keyboard.press(key);
  await expect(dialog).toBeHidden();
}

test('quick switcher: Ctrl+K / Ctrl+O from every view, fuzzy over titles and paths', async ({ page }) => {
  const errors = await openBig(page);
  for (const [i, view] of VIEWS.entries()) {
    await page.keyboard.press(`Control+${i + 1}`);
    await expect(page.getByRole('heading', { name: new RegExp(`^${view}`) }).first()).toBeVisible();
    await page.keyboard.press(i % 2 ? 'Control+o' : 'Control+k');
    await expect(page.getByTestId('quick-switcher')).toBeVisible();
    await expect(page.getByTestId('quick-switcher').getByRole('combobox')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('quick-switcher')).toBeHidden();
  }
  await page.keyboard.press('Control+1');
  await page.keyboard.press('Control+k');
  const dialog = page.getByTestId('quick-switcher');
  await expect(dialog).toContainText(/of 2,0\d\d notes/);
  // Fuzzy: letters of the path in order, not a substring.
  await page.keyboard.type('v60recipe');
  const options = dialog.getByRole('option');
  await expect(options.first()).toBeVisible();
  await expect(options.first()).toContainText(/brewing\/.*V60 Recipe/i);
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await shot(page, 'journey-01-switcher');
  await page.keyboard.press('ArrowUp');
  const title = (await options.first().locator('span').first().textContent())!;
  await page.keyboard.press('Enter');
  const viewer = page.getByTestId('note-viewer');
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('heading', { level: 2 }).first()).toHaveText(title);
  // Rendered Markdown, not raw lines.
  await expect(viewer.getByTestId('note-rendered')).toBeVisible();
  await expect(viewer.getByTestId('note-rendered').locator('p, li, h1, h2').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('mind map: the note picker is the switcher', async ({ page }) => {
  await openBig(page);
  await page.keyboard.press('Control+3');
  await expect(page.getByTestId('mm-node').first()).toBeVisible();
  // No giant <select> of every note any more.
  await expect(page.locator('select#mm-doc')).toHaveCount(0);
  await page.getByTestId('mm-pick').click();
  const dialog = page.getByRole('dialog', { name: "Open a note's mind map" });
  await expect(dialog).toBeVisible();
  await page.keyboard.type('Water Chemistry');
  const first = dialog.getByRole('option').first();
  const title = (await first.locator('span').first().textContent())!;
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('mm-pick')).toContainText(title);
  await expect(page.getByTestId('mm-node').first()).toHaveAttribute('aria-label', /.+/);
  await shot(page, 'journey-02-mindmap-switcher');
  // Alt+Enter from the plain switcher opens a mind map too.
  await page.keyboard.press('Control+1');
  await switchTo(page, 'Coffee Notebook', 'Alt+Enter');
  await expect(page.getByRole('heading', { name: 'Mind map' })).toBeVisible();
  await expect(page.getByTestId('mm-pick')).toContainText('Coffee Notebook');
});

test('mind map: a new note replaces the old selection; full width beside a note; arrow keys; focus comes back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors = await openBig(page);
  await page.keyboard.press('Control+1');
  await switchTo(page, 'sample-notes/brewing/V60 Recipe', 'Alt+Enter');
  const nodes = page.getByTestId('mm-node');
  const details = page.getByTestId('mm-details');
  await expect(nodes.first()).toHaveAttribute('aria-label', /.+/);
  // Arrow keys walk the tree top to bottom; the details follow the focused node.
  await nodes.first().focus();
  await page.keyboard.press('ArrowDown');
  const second = page.locator('[data-testid="mm-node"]:focus');
  await expect(second).toHaveAttribute('aria-selected', 'true');
  const secondLabel = (await second.getAttribute('aria-label'))!;
  expect(secondLabel).not.toBe(await nodes.first().getAttribute('aria-label'));
  await expect(details.locator('p')).toHaveText(secondLabel);
  await page.keyboard.press('ArrowUp');
  await expect(nodes.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid="mm-node"]:focus')).toHaveAttribute('aria-label', secondLabel);
  const oldSource = (await details.getByRole('button', { name: /^Source/ }).textContent())!;

  // Another note: its own root is selected, and "Source" opens that note, not the old one's lines.
  await page.getByTestId('mm-pick').click();
  await page.keyboard.type('sample-notes/travel/Gothenburg');
  await expect(page.getByRole('dialog').getByRole('option').first()).toContainText('Gothenburg');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('mm-pick')).toContainText('Gothenburg');
  const root = (await nodes.first().getAttribute('aria-label'))!;
  await expect(details.locator('p')).toHaveText(root);
  await expect(details.locator('p')).not.toHaveText(secondLabel);
  const source = details.getByRole('button', { name: /^Source/ });
  if (await source.count()) expect(await source.textContent()).not.toBe(oldSource);
  await nodes.first().focus();
  await page.keyboard.press('ArrowDown');
  const picked = page.locator('[data-testid="mm-node"]:focus');
  const pickedLabel = (await picked.getAttribute('aria-label'))!;
  await details.getByRole('button', { name: /^Source/ }).click();
  const viewer = page.getByTestId('note-viewer');
  await expect(viewer.getByTestId('note-viewer-path')).toContainText('Gothenburg Trip.md');
  await expect(viewer.getByTestId('note-rendered').locator('[data-cited]').first()).toBeVisible();

  // Beside the open note the map keeps most of the view's width (it was squeezed to ~250 px).
  const map = await page.getByTestId('mindmap').boundingBox();
  expect(map!.width).toBeGreaterThan(450);
  await expect(details).toContainText(pickedLabel);
  await shot(page, 'journey-02b-mindmap-beside-note');

  // Escape closes the note and focus goes back to the button that opened it.
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(details.getByRole('button', { name: /^Source/ })).toBeFocused();
  // Ctrl+2 puts the cursor in the question box.
  await page.keyboard.press('Control+2');
  await expect(page.getByLabel('Question')).toBeFocused();
  expect(errors).toEqual([]);
});

test('links: a wikilink opens its note, backlinks lead back, tags are shown and searchable', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors = await openBig(page);
  await switchTo(page, 'sample-notes/index');
  const viewer = page.getByTestId('note-viewer');
  await expect(viewer.getByRole('heading', { level: 2 }).first()).toHaveText('Coffee Notebook');
  await expect(viewer.getByTestId('note-tags')).toContainText('#coffee');
  // [[Kestrel Coffee Works]] is a link now, to the note the engine resolves it to.
  const link = viewer.getByTestId('note-rendered').getByTestId('wikilink').filter({ hasText: 'Kestrel Coffee Works' }).first();
  await expect(link).toHaveAttribute('title', 'sample-notes/roasters/Kestrel Coffee Works.md');
  await link.click();
  await expect(viewer.getByRole('heading', { level: 2 }).first()).toHaveText('Kestrel Coffee Works');
  // Its backlinks: the index links to it, and so do generated notes; each opens at the linking line.
  const backlinks = viewer.getByTestId('backlinks');
  const fromIndex = backlinks.getByTestId('backlink').filter({ hasText: 'sample-notes/index.md' });
  await expect(fromIndex).toHaveCount(1);
  expect(await backlinks.getByTestId('backlink').count()).toBeGreaterThan(1);
  await backlinks.scrollIntoViewIfNeeded();
  await shot(page, 'journey-05b-backlinks');
  await fromIndex.getByRole('button').click();
  await expect(viewer.getByRole('heading', { level: 2 }).first()).toHaveText('Coffee Notebook');
  await expect(viewer.getByTestId('note-rendered').locator('[data-cited]').first()).toContainText('Kestrel Coffee Works');
  // A tag opens the switcher on it: every note listed carries it.
  await viewer.getByTestId('note-tags').getByRole('button', { name: '#index' }).click();
  const dialog = page.getByTestId('quick-switcher');
  await expect(dialog.getByRole('combobox')).toHaveValue('#index');
  await expect(dialog.getByRole('option').first()).toBeVisible();
  for (const tags of await dialog.getByTestId('switcher-tags').allTextContents()) expect(tags).toContain('#index');
  await shot(page, 'journey-05c-tag-search');
  await page.keyboard.press('Escape');
  expect(errors).toEqual([]);
});

test('reading: an answer cites lines; the rendered note highlights them; raw lines on demand; related notes with reasons', async ({ page }) => {
  const errors = await openBig(page);
  await page.keyboard.press('Control+2');
  await page.getByLabel('Question').fill(QUESTION);
  await page.getByLabel('Question').press('Enter');
  const answer = page.getByTestId('answer').last();
  const citation = answer.getByTestId('citation').first();
  await expect(citation).toBeVisible({ timeout: 120_000 });
  const m = /lines? (\d+)(?:–(\d+))?/.exec((await citation.locator('span span').last().textContent()) ?? '');
  expect(m, 'the citation shows its lines').toBeTruthy();
  const from = Number(m![1]);
  const to = Number(m![2] ?? m![1]);
  await citation.click();
  const viewer = page.getByTestId('note-viewer');
  const cited = viewer.getByTestId('note-rendered').locator('[data-cited]').first();
  await expect(cited).toBeVisible();
  // The highlighted block's source lines overlap the cited ones.
  expect(Number(await cited.getAttribute('data-line'))).toBeLessThanOrEqual(to);
  expect(Number(await cited.getAttribute('data-line-end'))).toBeGreaterThanOrEqual(from);
  await expect(cited).toBeInViewport();
  await shot(page, 'journey-03-rendered-citation');

  await viewer.getByRole('button', { name: 'Raw lines' }).click();
  await expect(viewer.getByRole('button', { name: 'Raw lines' })).toHaveAttribute('aria-pressed', 'true');
  const raw = viewer.getByTestId('note-raw').locator('[data-cited]');
  await expect(raw.first()).toHaveAttribute('data-line', String(from));
  await expect(raw).toHaveCount(to - from + 1);
  await expect(raw.first()).toBeInViewport();
  await shot(page, 'journey-04-raw-citation');
  await viewer.getByRole('button', { name: 'Raw lines' }).click();
  await expect(viewer.getByTestId('note-rendered')).toBeVisible();

  // The passages the answer was drawn from, under it: each shows the note's lines and opens the note there.
  const passages = answer.getByTestId('answer-passages');
  await passages.locator('summary').click();
  const passage = passages.getByTestId('passage').last();
  await expect(passage).toBeVisible();
  await expect(passages.locator('summary')).toHaveText(`${await passages.getByTestId('passage').count()} passages retrieved`);
  const pm = /lines? (\d+)(?:–(\d+))?/.exec((await passage.getByTestId('passage-source').textContent()) ?? '');
  expect(pm, 'a passage shows its lines').toBeTruthy();
  const passageFrom = Number(pm![1]);
  const passageTo = Number(pm![2] ?? pm![1]);
  expect((await passage.textContent())!.length).toBeGreaterThan(20);
  // Rendered as the note viewer renders notes: lists and code are elements, no Markdown fences show.
  expect(await passages.locator('pre, code, li, table').count()).toBeGreaterThan(0);
  expect(await passages.textContent()).not.toContain('```');
  // The question's words are marked where they occur.
  const marks = (await passages.locator('mark').allTextContents()).map((m) => m.toLowerCase());
  expect(marks.length).toBeGreaterThan(0);
  for (const m of marks) expect(['roast', 'coffee', 'popper'].some((w) => m.startsWith(w)), m).toBe(true);
  // A passage whose lines hold a cited fact says which: every citation's lines are checked against every passage's.
  const span = (source: string) => {
    const [path, lines] = source.split(' · ');
    const n = /lines? (\d+)(?:–(\d+))?/.exec(lines ?? '')!;
    return { path, from: Number(n[1]), to: Number(n[2] ?? n[1]) };
  };
  const cites = await answer.getByTestId('citation').allTextContents();
  const sources = await answer.getByTestId('citation-source').allTextContents();
  let held = 0;
  for (let i = 0; i < (await passages.getByTestId('passage').count()); i++) {
    const item = passages.getByTestId('passage').nth(i);
    const p = span((await item.getByTestId('passage-source').textContent())!);
    const expected = sources.map(span).flatMap((c, j) => (c.path === p.path && p.from <= c.from && c.to <= p.to ? [/^\[(\d+)\]/.exec(cites[j]!)![1]] : []));
    if (expected.length) {
      held++;
      await expect(item.getByTestId('passage-cites')).toHaveText(` · holds ${expected.map((n) => `[${n}]`).join(' ')}`);
    } else await expect(item.getByTestId('passage-cites')).toHaveCount(0);
  }
  expect(held, 'some passage holds a cited fact').toBeGreaterThan(0);
  await passage.getByRole('button').click();
  const shownLines = viewer.getByTestId('note-rendered').locator('[data-cited]');
  await expect(shownLines.first()).toBeVisible();
  expect(Number(await shownLines.first().getAttribute('data-line'))).toBeLessThanOrEqual(passageTo);
  expect(Number(await shownLines.last().getAttribute('data-line-end'))).toBeGreaterThanOrEqual(passageFrom);
  await passage.scrollIntoViewIfNeeded();
  await shot(page, 'journey-04b-passages');

  const related = viewer.getByTestId('related-notes');
  await expect(related).toBeVisible();
  await expect(related.getByTestId('related-note').first()).toBeVisible();
  await expect(related.getByTestId('related-reason').first()).not.toBeEmpty();
  const next = related.getByTestId('related-note').first().getByRole('button').first();
  const nextTitle = (await next.textContent())!;
  await shot(page, 'journey-05-related');
  await next.click();
  await expect(viewer.getByRole('heading', { level: 2 }).first()).toHaveText(nextTitle);
  // Beside the answer as well.
  await answer.getByTestId('answer-related').locator('summary').click();
  await expect(answer.getByTestId('related-note').first()).toBeVisible();
  // "Open in my editor": the server runs the user's editor command (a recorder here) on the note's real file.
  const opened = process.env.LOCI_E2E_OPENED!;
  rmSync(opened, { force: true });
  await viewer.getByRole('button', { name: 'Open in editor' }).click();
  await expect.poll(() => (existsSync(opened) ? (JSON.parse(readFileSync(opened, 'utf8')) as string[])[0] : ''), { timeout: 15_000 }).toMatch(/\.md$/);
  expect((JSON.parse(readFileSync(opened, 'utf8')) as string[])[0]!.startsWith(realpathSync(process.env.LOCI_E2E_BIG_DIR!))).toBe(true);

  // The conversation reopened from the history shows the answer's passages as asked.
  const passageCount = await passages.getByTestId('passage').count();
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(page.getByTestId('answer')).toHaveCount(0);
  await page.getByRole('complementary', { name: 'Conversation history' }).getByRole('button', { name: QUESTION }).first().click();
  const restored = page.getByTestId('answer').last().getByTestId('answer-passages');
  await expect(restored.locator('summary')).toHaveText(`${passageCount} passages retrieved`);
  await restored.locator('summary').click();
  expect((await restored.locator('mark').allTextContents()).map((m) => m.toLowerCase()).sort()).toEqual([...marks].sort());

  // Deleted from the history, with a confirmation; from the keyboard (Delete on a focused item) as well.
  const history = page.getByRole('complementary', { name: 'Conversation history' });
  const item = history.getByRole('button', { name: QUESTION, exact: true });
  const before = await item.count();
  await item.first().focus();
  await page.keyboard.press('Delete');
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Delete this conversation?');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(item).toHaveCount(before);
  await history.getByRole('button', { name: `Delete the conversation “${QUESTION}”` }).first().click();
  await confirm.getByRole('button', { name: 'Delete conversation' }).click();
  await expect(item).toHaveCount(before - 1);
  // It was the open one: the thread is cleared rather than showing a conversation that is gone.
  await expect(page.getByTestId('answer')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('graph: opens around the current note (1–2 hops, filters kept), labels on hover, fits; the whole library as clusters', async ({ page }) => {
  await openBig(page);
  await switchTo(page, 'sample-notes/index');
  const viewer = page.getByTestId('note-viewer');
  // The title replaces the path once the note has loaded.
  await expect(viewer.getByTestId('note-rendered')).toBeVisible();
  const title = (await viewer.getByRole('heading', { level: 2 }).first().textContent())!;
  await page.keyboard.press('Control+4');
  await expect(page.getByTestId('graph-mode')).toContainText(`Around ${title}`);
  const summary = page.getByTestId('graph-summary');
  const count = async () => Number(((await summary.textContent()) ?? '').replace(/,/g, '').match(/^(\d+) nodes/)?.[1] ?? 0);
  await expect.poll(count).toBeGreaterThan(1);
  const oneHop = await count();
  await page.getByLabel('How many links away from the note').selectOption('2');
  await expect.poll(count).toBeGreaterThan(oneHop);
  await page.waitForTimeout(1500);
  await shot(page, 'journey-06-local-graph');
  // Filters are kept across hops: hide entities, go back to 1 hop, still hidden.
  await page.getByRole('checkbox', { name: 'Entities' }).uncheck();
  const noEntities = await count();
  await page.getByLabel('How many links away from the note').selectOption('1');
  await expect(page.getByRole('checkbox', { name: 'Entities' })).not.toBeChecked();
  await expect.poll(count).toBeLessThanOrEqual(noEntities);
  await page.getByRole('checkbox', { name: 'Entities' }).check();
  // Hover: find a node, centre on it, point at it: its label shows.
  await page.getByLabel('Find a node in the graph').fill('Coffee');
  await expect(page.getByTestId('graph-canvas')).toHaveAttribute('data-settled', 'true', { timeout: 90_000 });
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.waitForTimeout(600);
  const box = (await page.getByTestId('graph-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByRole('status').filter({ hasText: /links?/ })).toBeVisible();
  await page.getByRole('button', { name: 'Fit to view' }).click();

  // The whole library: the cluster overview (graph-scale.spec.ts covers opening clusters and the keyboard).
  await page.getByRole('button', { name: 'Whole library' }).click();
  await expect(page.getByTestId('graph-mode')).toHaveText('Whole library');
  await expect(page.getByLabel('Group notes by')).toHaveValue('folder');
  await expect(summary).toHaveText(/^\d+ clusters of [\d,]+ notes/);
  await expect(page.getByTestId('graph-cluster').first()).toBeVisible();
  await shot(page, 'journey-07-global-clusters');
  await page.getByTestId('graph-cluster').first().hover();
  await expect(page.getByTestId('graph-tooltip')).toContainText(/[\d,]+ notes/);
  await page.getByLabel('Group notes by').selectOption('topic');
  await expect(page.getByTestId('graph-cluster').first()).toBeVisible();
  await expect(summary).toHaveText(/^\d+ clusters of [\d,]+ notes/);
  await shot(page, 'journey-08-global-super-topics');
});

test('library: per-note status, a run cancelled shows as cancelled, scopes, remove with confirm', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = await openBig(page);
  const table = page.getByTestId('documents-table');
  await expect(table).toBeVisible();
  await expect(table.getByTestId('note-status').first()).toHaveText(/Fast|Model|Skipped|Failed/);
  await page.getByLabel('Status', { exact: true }).selectOption({ index: 1 });
  await expect(table.getByTestId('note-status').first()).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('all');
  await shot(page, 'journey-09-library-status');

  // A second folder, cancelled while it indexes: shown as cancelled, not as an error.
  const extra = buildExtraFolder(600);
  try {
    await page.getByLabel('Folder path').fill(extra);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const card = page.getByTestId('folder-card').filter({ hasText: extra });
    await expect(card.getByTestId('index-progress')).toBeVisible();
    await expect(card.getByTestId('index-status')).toContainText(/\d+ \/ \d+/);
    await shot(page, 'journey-10-indexing');
    await card.getByRole('button', { name: /^Cancel/ }).click();
    await expect(card.getByTestId('index-cancelled')).toBeVisible({ timeout: 60_000 });
    await expect(card.getByRole('alert')).toHaveCount(0);
    await shot(page, 'journey-11-cancelled');

    await card.getByRole('button', { name: 'Re-index' }).click();
    await expect(card.getByTestId('index-report')).toBeVisible({ timeout: 120_000 });
    await card.getByTestId('scope-editor').locator('summary').click();
    await card.getByLabel('Exclude').fill('notebook/beans/\nnotebook/brewing/');
    await card.getByRole('button', { name: /Save scope/ }).click();
    await expect(card.getByText('Saved.')).toBeVisible();

    await card.getByRole('button', { name: `Remove folder ${extra}` }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await expect(confirm).toBeVisible();
    await shot(page, 'journey-12-remove-confirm');
    await confirm.getByRole('button', { name: 'Remove folder' }).click();
    await expect(page.getByTestId('folder-card').filter({ hasText: extra })).toHaveCount(0);
  } finally {
    rmSync(extra, { recursive: true, force: true });
  }
  expect(errors).toEqual([]);
});

test('settings: grouped, labelled, bounded, inline errors, reset to default', async ({ page }) => {
  await openBig(page);
  await page.keyboard.press('Control+5');
  const form = page.getByTestId('settings-form');
  await expect(form.getByRole('group').first()).toBeVisible();
  await expect(form.getByRole('combobox').first()).toBeVisible();
  const number = form.getByRole('spinbutton').first();
  const max = await number.getAttribute('max');
  const min = await number.getAttribute('min');
  await number.fill(max ? String(Number(max) + 1000) : String(Number(min ?? 0) - 1000));
  await expect(form.getByRole('alert').first()).toBeVisible();
  await expect(form.getByRole('button', { name: /^Save/ })).toBeDisabled();
  await shot(page, 'journey-13-settings-invalid');
  // A valid value saves; "Reset to default" brings the default back.
  const field = form.locator('[data-testid^="setting-"]').filter({ has: page.getByRole('spinbutton') }).first();
  const input = field.getByRole('spinbutton');
  const defaultText = /Default: ([^.]+(?:\.\d+)?)\./.exec((await field.textContent()) ?? '')?.[1];
  const lo = Number(min ?? 1);
  const hi = max ? Number(max) : lo + 10;
  const other = Number(defaultText) === hi ? lo : hi;
  await input.fill(String(other));
  await form.getByRole('button', { name: /^Save/ }).click();
  await expect(form.getByText('Saved.')).toBeVisible();
  await field.getByRole('button', { name: /^Reset/ }).click();
  await expect(input).toHaveValue(String(Number(defaultText)));
  await expect(field.getByRole('button', { name: /^Reset/ })).toBeDisabled();
});
