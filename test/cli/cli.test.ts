import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDb } from '../../main/engine/store/db.js';
import { setSetting } from '../../main/engine/store/settings.js';
import { FAST_PIPELINE_VERSION } from '../../main/engine/types.js';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const samples = join(repo, 'resources/sample-notes');
let dir: string;
let db: string;

async function loci(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(repo, 'bin/loci.mjs'), ...args], { cwd: repo, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

const lociText = loci;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-cli-'));
  db = join(dir, 'index.db');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('loci CLI on the bundled sample notes', () => {
  it('indexes, reports counts as JSON, and re-indexes nothing the second time', async () => {
    const first = JSON.parse(await loci('index', samples, '--db', db, '--json'));
    expect(first.counts.documents).toBeGreaterThan(5);
    for (const k of ['chunks', 'fcis', 'mindMapNodes', 'entities', 'triples', 'docEdges']) expect(first.counts[k], k).toBeGreaterThan(0);
    const second = JSON.parse(await loci('index', samples, '--db', db, '--json'));
    expect(second.changed).toBe(0);
    expect(second.unchanged).toBe(first.changed);
    // The notes' languages, most notes first (the sample notebook has one note in Chinese).
    expect(await loci('stats', '--db', db)).toMatch(/^Languages: en \d+, zh 1$/m);
  });

  for (const method of ['bm25', 'dense', 'hybrid']) {
    it(`answers with contexts whose cited lines contain the cited text (${method})`, async () => {
      const stats = JSON.parse(await loci('stats', '--db', db, '--json'));
      const question = 'What are the steps and what temperature is used?';
      const answer = JSON.parse(await loci('ask', question, '--db', db, '--method', method, '--k', '5', '--json'));
      expect(answer.mode).toBe('extractive');
      expect(answer.method).toBe(method);
      expect(answer.contexts.length).toBeGreaterThan(0);
      expect(answer.citations.length).toBeGreaterThan(0);
      for (const c of [...answer.contexts, ...answer.citations]) {
        const file = (await readFile(join(stats.roots[0], c.docPath), 'utf8')).split('\n');
        const cited = file.slice(c.lineFrom - 1, c.lineTo).join('\n');
        // Words of the cited text (Markdown syntax aside) all stand in the cited lines.
        const words = c.text.match(/[\p{L}\p{N}]{3,}/gu) ?? [];
        expect(words.length).toBeGreaterThan(0);
        for (const w of words) expect(cited, `${c.docPath}:${c.lineFrom}-${c.lineTo} should contain "${w}"`).toContain(w);
      }
      // Every [n] in the text refers to a citation.
      const refs = [...answer.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      for (const n of refs) expect(answer.citations.some((c: { n: number }) => c.n === n)).toBe(true);
    });
  }

  it('answers the same from its kept bundle of the sources as through tsx (LOCI_DEV_BUNDLE=0)', async () => {
    const q = 'Where was the founder of Kestrel Coffee Works born?';
    const viaTsx = await run(process.execPath, [join(repo, 'bin/loci.mjs'), 'ask', q, '--db', db, '--explain', '--json'], { cwd: repo, env: { ...process.env, LOCI_DEV_BUNDLE: '0' } });
    const viaBundle = JSON.parse(await loci('ask', q, '--db', db, '--explain', '--json'));
    // Each ask is timed and kept as a chat of its own.
    const { ms: _a, chatId: _c, ...fromTsx } = JSON.parse(viaTsx.stdout);
    const { ms: _b, chatId: _d, ...fromBundle } = viaBundle;
    expect(fromBundle.citations.length).toBeGreaterThan(0);
    expect(fromBundle).toEqual(fromTsx);
    // Built beside the CLI's entry on first use (git-ignored), and kept.
    expect((await readFile(join(repo, 'main/cli/.dev-bundle/index.mjs'), 'utf8')).length).toBeGreaterThan(100_000);
  });

  it('prints a mind map with the note title at the root', async () => {
    const docs = JSON.parse(await loci('stats', '--db', db, '--json'));
    expect(docs.counts.mindMapNodes).toBeGreaterThan(0);
    const answer = JSON.parse(await loci('ask', 'coffee', '--db', db, '--json'));
    const note = answer.contexts[0].docPath;
    const map = JSON.parse(await loci('mindmap', note, '--db', db, '--json'));
    expect(map.kind).toBe('topic');
    expect(map.text).toBe(answer.contexts[0].docTitle);
    expect(map.children.length).toBeGreaterThan(0);
  });

  it('explains how loci, hig and pgr reached their contexts (--explain)', async () => {
    const q = 'Where was the founder of Kestrel Coffee Works born?';
    const loci = await lociText('ask', q, '--db', db, '--method', 'loci', '--explain');
    // loci shows each document's ranks and the bridge that led to the second hop.
    expect(loci).toMatch(/loci \(ranks: bm25 \/ dense \/ title/);
    expect(loci).toMatch(/Mara Lindqvist .*bridge: “Kestrel Coffee Works” mentions “mara lindqvist”/);
    const hig = await lociText('ask', q, '--db', db, '--method', 'hig', '--explain');
    expect(hig).toMatch(/\(Mara Lindqvist [^)]*\)/);
    // The sample notes are several sections each (38 passages, 12 notes): shown in their sections' spans.
    expect(hig).toMatch(/Passages: these notes are guides/);
    const pgr = await lociText('ask', q, '--db', db, '--method', 'pgr', '--explain');
    expect(pgr).toMatch(/Mind map:/);
    const plain = await lociText('ask', q, '--db', db, '--method', 'bm25', '--explain');
    expect(plain).toMatch(/no graph walk to explain/);
  });

  it('prints the passages the answer was drawn from, each with its note\'s lines as written (--passages)', async () => {
    const q = 'Where was the founder of Kestrel Coffee Works born?';
    const out = await lociText('ask', q, '--db', db, '--passages');
    const json = JSON.parse(await loci('ask', q, '--db', db, '--json')) as { contexts: { docPath: string; lineFrom: number; lineTo: number }[] };
    expect(out).toContain(`${json.contexts.length} passage(s) retrieved:`);
    const heads = [...out.matchAll(/^\((\d+)\) (.+?):(\d+)-(\d+)/gm)];
    expect(heads.map((h) => [h[2], Number(h[3]), Number(h[4])])).toEqual(json.contexts.map((c) => [c.docPath, c.lineFrom, c.lineTo]));
    // Each passage's text is its note's lines: its first line is the note's line where the passage starts.
    for (const h of heads) {
      const firstLine = out.slice(h.index! + h[0].length).split('\n').find((l) => l.startsWith('    '))!.slice(4);
      const lines = (await readFile(join(samples, h[2]!), 'utf8')).split('\n');
      expect(lines.slice(Number(h[3]) - 1, Number(h[4]))).toContain(firstLine);
    }
    // Without the flag, no passages.
    expect(await lociText('ask', q, '--db', db)).not.toContain('passage(s) retrieved');
  });

  it('says on stderr, not in the JSON, why unchanged notes are extracted again after an upgrade', async () => {
    const upgraded = join(dir, 'upgraded.db');
    const first = JSON.parse(await loci('index', samples, '--db', upgraded, '--json'));
    // What an index built by the previous fast pipeline looks like.
    const store = openDb(upgraded);
    setSetting(store, 'fast_pipeline', FAST_PIPELINE_VERSION - 1);
    store.close();
    const again = await run(process.execPath, [join(repo, 'bin/loci.mjs'), 'index', samples, '--db', upgraded, '--json'], { cwd: repo });
    expect(JSON.parse(again.stdout).changed).toBe(first.changed);
    expect(again.stderr).toMatch(new RegExp(`loci: This version of Loci extracts more .* ${first.changed} unchanged notes are extracted again, once`));
    const third = await run(process.execPath, [join(repo, 'bin/loci.mjs'), 'index', samples, '--db', upgraded, '--json'], { cwd: repo });
    expect(JSON.parse(third.stdout).changed).toBe(0);
    expect(third.stderr).not.toMatch(/extracted again/);
  });

  it('fails clearly for a note that is not indexed', async () => {
    await expect(loci('mindmap', 'no/such/note.md', '--db', db)).rejects.toMatchObject({ stderr: expect.stringContaining('No mind map') });
  });

  it('refuses a --db that holds no index for ask, stats and mindmap, and creates no file there', async () => {
    const missing = join(dir, 'typo', 'indx.db');
    for (const args of [['ask', 'coffee'], ['stats'], ['mindmap', 'Beans.md']]) {
      await expect(loci(...args, '--db', missing)).rejects.toMatchObject({ stderr: expect.stringContaining(`There is no index at ${missing}: index a folder first`) });
    }
    expect(existsSync(join(dir, 'typo'))).toBe(false);
  });

  it('refuses a --k that is not a whole number from the contract\'s range, instead of finding nothing', async () => {
    for (const k of ['abc', '0', '2.5', '51']) {
      await expect(loci('ask', 'coffee', '--db', db, '--k', k), k).rejects.toMatchObject({ stderr: expect.stringContaining(`option '--k <n>' argument '${k}' is invalid`) });
    }
    expect(JSON.parse(await loci('ask', 'coffee', '--db', db, '--k', '2', '--json')).contexts.length).toBeLessThanOrEqual(2);
  });
});

/**
 * A pulled embedding model's layout under `models` (what listing and removal read; loading the model is
 * tested in test/host/models.test.ts). Returns the folder.
 */
async function embeddingFolder(models: string, id: string): Promise<string> {
  const folder = join(models, id);
  await mkdir(join(folder, 'onnx'), { recursive: true });
  for (const f of ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx']) await writeFile(join(folder, f), '{}');
  return folder;
}

describe('loci models list', () => {
  it('marks an installed embedding model and says which --embedder uses it', async () => {
    const models = join(dir, 'models');
    const folder = await embeddingFolder(models, 'multilingual-e5-small');
    const json = JSON.parse(await loci('models', 'list', '--dir', models, '--json')) as { catalogue: { id: string; installed: boolean; embedder?: string }[] };
    const byId = new Map(json.catalogue.map((m) => [m.id, m]));
    expect(byId.get('multilingual-e5-small')).toMatchObject({ installed: true, embedder: `transformers:${folder}` });
    expect(byId.get('all-minilm-l6-v2')).toMatchObject({ installed: false });
    expect(byId.get('all-minilm-l6-v2')!.embedder).toBeUndefined();
    const text = await lociText('models', 'list', '--dir', models);
    expect(text).toMatch(/✓ multilingual-e5-small .*\n {4}use it with --embedder transformers:.*multilingual-e5-small\n/);
  });
});

describe('loci models remove', () => {
  it('deletes an installed model, and refuses one the index uses, or one not installed', async () => {
    const models = join(dir, 'models-remove');
    const folder = await embeddingFolder(models, 'all-minilm-l6-v2');
    // An index whose embedder is that folder.
    const used = join(dir, 'uses-minilm.db');
    const store = openDb(used);
    setSetting(store, 'embedder', `transformers:${folder}`);
    store.close();
    await expect(loci('models', 'remove', 'all-minilm-l6-v2', '--dir', models, '--db', used)).rejects.toMatchObject({
      stderr: expect.stringContaining('all-minilm-l6-v2 is in use for search: choose another embedder first'),
    });
    await expect(loci('models', 'remove', 'no-such-model', '--dir', models, '--db', used)).rejects.toMatchObject({ stderr: expect.stringContaining('No installed model no-such-model') });
    const r = JSON.parse(await loci('models', 'remove', 'all-minilm-l6-v2', '--dir', models, '--db', join(dir, 'no-index-here.db'), '--json')) as { file: string; freedBytes: number };
    expect(r).toEqual({ id: 'all-minilm-l6-v2', file: folder, freedBytes: 6 });
    await expect(readFile(join(folder, 'config.json'))).rejects.toThrow(/ENOENT/);
  });
});
