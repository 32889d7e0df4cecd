import { expect, test } from '@playwright/test';
import path from 'node:path';
import { openDb } from '../main/engine/store/db.js';
import { setSetting } from '../main/engine/store/settings.js';
import { FAST_PIPELINE_VERSION } from '../main/engine/types.js';
import { indexedSampleLibrary } from './support/notes.js';
import { startServer } from './support/start-server.js';

// What the engine works around or wants the user to know reaches the window, not only the log: here an
// index built by an older fast pipeline, whose unchanged notes are extracted again once. Its own server,
// on a library the bundled CLI (built by the global setup) indexed before the "upgrade".
test('tells the user why unchanged notes are extracted again after an upgrade, until dismissed', async ({ page }) => {
  const { notes, db, indexed } = indexedSampleLibrary('loci-e2e-notices-');
  const store = openDb(db);
  setSetting(store, 'fast_pipeline', FAST_PIPELINE_VERSION - 1);
  store.close();

  const server = await startServer(
    [path.resolve('out/engine/loci.js'), 'serve', '--db', db, '--port', '0', '--static', path.resolve('out/renderer'), '--url-uses', '4'],
    { LOCI_DB: db },
  );
  try {
    await page.goto(server.url);
    const card = page.getByTestId('folder-card');
    await expect(card).toContainText(notes);
    // Watching the folder may already have caught up; otherwise the user re-indexes it.
    const notice = page.getByTestId('engine-notices');
    if (!(await notice.isVisible())) await card.getByRole('button', { name: 'Re-index' }).click();
    await expect(notice).toContainText(`${indexed} unchanged notes are extracted again, once`);
    await expect(card).toContainText('Up to date');

    // A window opened later still hears of it (engine.warnings), until the user dismisses it.
    await page.goto(server.url);
    await expect(notice).toContainText('extracted again, once');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    // Dismissed stays dismissed when this window reloads.
    await page.goto(server.url);
    await expect(card).toContainText(notes);
    // Before the dismissal the notice showed within moments of the card; give it as long again and more.
    await page.waitForTimeout(1500);
    await expect(notice).toHaveCount(0);
  } finally {
    await server.stop();
  }
});
