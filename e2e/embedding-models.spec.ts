import { expect, test, type Page } from '@playwright/test';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalogue } from '../main/engine/llm/models/catalogue.js';
import { writeSentenceTransformersConfig } from '../main/engine/embed/sentence-transformers-folder.js';
import { buildTinyBertOnnx } from '../test/embed/build-tiny-onnx.js';
import { tinyModelFile } from '../test/llm/helpers/tiny-model.js';
import { copySampleNotes, indexedSampleLibrary } from './support/notes.js';
import { writeTinyTokenizer } from './support/tiny-tokenizer.js';
import { startServer } from './support/start-server.js';
import { expectAccessible } from './support/big.js';

// An embedding model installed under Models is put to work from the window: the catalogue row offers
// "Use for search", the engine (the bundled CLI's server, as the packaged app runs it) loads the folder
// and re-embeds the index, and the index then names the model, cut where the catalogue says.
// The model is tiny and built here (no model hub on these machines), laid out under the catalogue's id
// with a real WordPiece tokenizer built from the sample notes' words (e2e/support/tiny-tokenizer.ts) and the
// files `loci models pull` writes.

/** A models folder holding the catalogue's recommended embedding model, as `loci models pull` lays it out. */
function modelsWithMiniLm(work: string) {
  const models = path.join(work, 'models');
  const entry = loadCatalogue().find((m) => m.id === 'all-minilm-l6-v2')!;
  const folder = path.join(models, entry.id);
  mkdirSync(path.join(folder, 'onnx'), { recursive: true });
  const { vocabSize } = writeTinyTokenizer(folder);
  writeFileSync(path.join(folder, 'onnx', 'model_quantized.onnx'), buildTinyBertOnnx({ vocabSize, dim: 24 }).onnx);
  writeSentenceTransformersConfig(folder, entry.embedding!);
  return { models, entry };
}

const serve = (db: string, models: string) =>
  startServer([path.resolve('out/engine/loci.js'), 'serve', '--db', db, '--port', '0', '--static', path.resolve('out/renderer'), '--url-uses', '4'], {
    LOCI_DB: db,
    LOCI_MODELS_DIR: models,
  });

/** A first run: a new index with MiniLM installed, the sample notes' folder added; the model step follows. */
async function firstRunWithMiniLm(page: Page, prefix: string) {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  const notes = copySampleNotes();
  const { models, entry } = modelsWithMiniLm(work);
  const server = await serve(path.join(work, 'index.db'), models);
  try {
    await page.goto(server.url);
    await page.getByLabel('Folder path').fill(notes);
    await page.getByRole('button', { name: 'Add folder' }).click();
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { server, entry };
}

test('an installed embedding model: use it for search, the index is re-embedded with it', async ({ page }) => {
  const { work, notes, db } = indexedSampleLibrary('loci-e2e-embedders-');

  const { models, entry } = modelsWithMiniLm(work);
  // And the recommended chat model, saved under its file's name as `models pull` saves it (the real tiny
  // GGUF stands in for its weights; it is offered, never used here).
  const chat = loadCatalogue().find((m) => m.role === 'chat' && m.recommended)!;
  copyFileSync(tinyModelFile(), path.join(models, chat.file!));
  const server = await serve(db, models);
  try {
    await page.goto(server.url);
    await expect(page.getByTestId('folder-card')).toContainText(notes);
    await page.getByRole('button', { name: /^Settings/ }).first().click();
    // The index's own row, not the header of the index-time table below it (which also begins "Embedder").
    const embedderRow = page.getByRole('row', { name: /^Embedder (?!Indexing this library)/ });
    await expect(embedderRow).toContainText('glove');
    // What the offer of a model goes by: the notes' languages (the sample notebook has one note in Chinese).
    await expect(page.getByRole('row', { name: /^Languages \d/ })).toHaveText(/^Languages\s*\d+ notes in English, 1 in Chinese$/);

    // The embedder field offers the installed model by its id, beside the built-in one.
    const choice = page.getByTestId('settings-form').locator(`datalist option[value="transformers:${path.join(models, entry.id)}"]`);
    await expect(choice).toHaveAttribute('label', `${entry.id} (installed)`);
    // The installed model's row offers to use it; another embedding model, not installed, offers its download.
    const use = page.getByRole('button', { name: `Use for search: ${entry.name}` });
    await expect(use).toBeEnabled();
    await expect(page.getByRole('row', { name: /multilingual-e5-small/ }).getByRole('button', { name: 'Download' })).toBeVisible();
    // An installed chat model offers to write the answers, though its file is not named by its id.
    await expect(page.getByRole('button', { name: `Use for answers: ${chat.name}` })).toBeEnabled();
    await use.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(`${entry.name} now embeds your notes`)).toBeVisible();
    await expect(page.getByRole('button', { name: `In use: ${entry.name}` })).toBeDisabled();
    await expect(use).toHaveCount(0);
    // A model in use cannot be removed; another can, after a confirmation, and its row offers the download again.
    await expect(page.getByRole('button', { name: `Remove ${entry.name}` })).toBeDisabled();
    await expect(page.getByRole('button', { name: `Remove ${entry.name}` })).toHaveAttribute('title', 'In use for search: choose another embedder first');
    await page.getByRole('button', { name: `Remove ${chat.name}` }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toContainText(chat.file!);
    await dialog.getByRole('button', { name: 'Remove model' }).click();
    const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(page.getByText(new RegExp(`^Removed ${escape(chat.file!.replace(/\.gguf$/, ''))}: 1\\.2 MB freed\\.$`))).toBeVisible();
    await expect(page.getByRole('row', { name: new RegExp(escape(chat.name)) }).getByRole('button', { name: 'Download' })).toBeVisible();

    // The re-embedding reports its progress, then which embedder search uses; the index names it, with the
    // trained length the catalogue declared, without reloading the page.
    const id = `transformers:${entry.id}@${entry.embedding!.maxSeqLength}`;
    await expect(page.getByTestId('embedder-switch')).toContainText(`Search now uses ${id}`, { timeout: 90_000 });
    await expect(embedderRow).toContainText(id);
    // And a question is answered with it.
    await page.keyboard.press('Control+2');
    await page.getByLabel('Question').fill('Where was the founder of Kestrel Coffee Works born?');
    await page.getByLabel('Question').press('Enter');
    await expect(page.getByTestId('answer').last().getByTestId('citation').first()).toBeVisible({ timeout: 60_000 });
  } finally {
    await server.stop();
  }
});

test('first run: the model step offers an installed embedding model for search', async ({ page }) => {
  const { server, entry } = await firstRunWithMiniLm(page, 'loci-e2e-onboarding-embedder-');
  try {
    const offer = page.getByTestId('model-step').getByRole('article', { name: `Embedding model ${entry.name}` });
    await expect(offer).toContainText('Installed.');
    await offer.getByRole('button', { name: `Use for search: ${entry.name}` }).click();
    await expect(offer.getByRole('button', { name: `In use: ${entry.name}` })).toBeDisabled();
    await expect(offer).toContainText('now embeds your notes');
    // The chat model is not installed: it still offers its download.
    await expect(page.getByTestId('model-step').getByRole('article', { name: /^Chat model/ }).getByRole('button', { name: 'Download' })).toBeVisible();
  } finally {
    await server.stop();
  }
});

// Notes of our own, in each language: the catalogue's recommendation (MiniLM) reads English only.
const FOREIGN_LIBRARIES = [
  {
    language: 'Chinese',
    model: 'bge-small-zh-v1.5',
    notes: {
      '乌龙茶.md': '# 乌龙茶\n\n乌龙茶是半发酵茶，主要产于福建和台湾。\n\n冲泡时水温宜高，香气浓郁，回甘持久。\n',
      '绿茶.md': '# 绿茶\n\n绿茶不经发酵，保留了鲜叶的天然物质。\n\n龙井和碧螺春都是有名的绿茶。\n',
      '普洱.md': '# 普洱茶\n\n普洱茶产于云南，分为生茶和熟茶。\n',
    },
  },
  {
    // German shares English's letters: told apart by its words, not its script.
    language: 'German',
    model: 'multilingual-e5-small',
    notes: {
      'röstung.md': '# Röstung\n\nEine helle Röstung bewahrt die Säure eines gewaschenen Kaffees, während eine dunkle Röstung die Bitterkeit betont.\n',
      'mühle.md': '# Mühle\n\nEine Kegelmühle mahlt gleichmäßiger als eine Schlagmühle, und der Mahlgrad bestimmt, wie schnell das Wasser durchläuft.\n',
      'wasser.md': '# Wasser\n\nWeiches Wasser mit wenig Kalk bringt die Aromen des Kaffees besser zur Geltung als hartes Leitungswasser.\n',
    },
  },
];

for (const library of FOREIGN_LIBRARIES) {
  test(`first run on ${library.language} notes: the model step offers an embedding model that reads them, and says why`, async ({ page }) => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-foreign-notes-'));
    const notes = path.join(work, 'notes');
    mkdirSync(notes, { recursive: true });
    for (const [name, text] of Object.entries(library.notes)) writeFileSync(path.join(notes, name), text);
    const server = await serve(path.join(work, 'index.db'), path.join(work, 'models'));
    try {
      await page.goto(server.url);
      await page.getByLabel('Folder path').fill(notes);
      await page.getByRole('button', { name: 'Add folder' }).click();
      const step = page.getByTestId('model-step');
      const pick = loadCatalogue().find((m) => m.id === library.model)!;
      const offer = step.getByRole('article', { name: `Embedding model ${pick.name}` });
      await expect(offer).toBeVisible();
      await expect(offer.getByTestId('offer-reason')).toHaveText(new RegExp(`^Chosen for your notes \\(100% ${library.language}\\): all-MiniLM-L6-v2 .* reads English only\\.$`));
      await expect(step.getByRole('article', { name: /^Embedding model all-MiniLM/ })).toHaveCount(0);
      await expect(offer.getByRole('button', { name: 'Download' })).toBeEnabled();
    } finally {
      await server.stop();
    }
  });
}

// The cost of each embedder before choosing it: Settings and the first run's model step time a short probe
// of the real index run per embedder (GloVe, and the installed model) on this library and show the
// estimate, with how it was measured behind a disclosure. No timing is asserted, only that each is measured.
test('Settings show how long indexing this library takes with each embedder, measured again on request', async ({ page }) => {
  const { work } = indexedSampleLibrary('loci-e2e-estimates-');
  const { models, entry } = modelsWithMiniLm(work);
  const server = await serve(path.join(work, 'index.db'), models);
  try {
    await page.goto(server.url);
    await page.getByRole('button', { name: /^Settings/ }).first().click();
    const estimates = page.getByRole('region', { name: 'Index time per embedder' });
    const glove = estimates.getByRole('row', { name: /GloVe/ });
    const mini = estimates.getByRole('row', { name: new RegExp(`${entry.id} \\(installed\\)`) });
    await expect(glove).toContainText(/about \d+ (s|min)|under a second/, { timeout: 90_000 });
    await expect(mini).toContainText(/about \d+ (s|min)|under a second/, { timeout: 90_000 });
    // The basis: how many notes the probe indexed, of how many.
    await mini.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(mini).toContainText(/Indexed \d+ of \d+ notes \(\d[\d,]* KB of \d[\d,]* KB\) into a scratch index/);
    await expectAccessible(page, 'settings with index estimates');
    // Kept: asked again (a reopened Settings), the probe is not run again; "Measure again" runs it.
    await page.getByRole('button', { name: /^Ask/ }).first().click();
    await page.getByRole('button', { name: /^Settings/ }).first().click();
    await expect(mini.locator('summary')).toHaveText(/about|under/);
    await mini.locator('summary').click();
    await expect(mini).toContainText('(kept from then)');
    await estimates.getByRole('button', { name: 'Measure again' }).click();
    await expect(estimates.getByRole('button', { name: 'Measuring…' })).toBeDisabled();
    await expect(estimates.getByRole('button', { name: 'Measure again' })).toBeEnabled({ timeout: 90_000 });
    await mini.locator('summary').click();
    await expect(mini).not.toContainText('(kept from then)');
  } finally {
    await server.stop();
  }
});

test('first run: the model step shows the index time with GloVe and with the installed embedding model', async ({ page }) => {
  const { server, entry } = await firstRunWithMiniLm(page, 'loci-e2e-onboarding-estimate-');
  try {
    const estimates = page.getByTestId('model-step').getByRole('region', { name: 'How long indexing your notes takes' });
    await expect(estimates.getByRole('row', { name: /GloVe/ })).toContainText(/about \d+ (s|min)|under a second/, { timeout: 90_000 });
    await expect(estimates.getByRole('row', { name: entry.name })).toContainText(/about \d+ (s|min)|under a second/, { timeout: 90_000 });
  } finally {
    await server.stop();
  }
});
