import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../main/contract/client.js';
import { portTransport, type PortMessage } from '../../main/contract/transports/message-port.js';
import { tinyModelFile } from '../llm/helpers/tiny-model.js';

// Issue 11 item 1: `npm run build`'s shell step (main/app/build.mjs) makes bundles that start under plain
// Node — no tsx, no TypeScript at run time: the engine process answers contract calls over its process
// transport, the model worker loads the real tiny GGUF and generates, and the bundled CLI serves
// browser mode. (The renderer half of `npm run build` is vite; the e2e setup builds it.)
const repo = path.resolve(import.meta.dirname, '../..');
const out = (p: string) => path.join(repo, 'out', p);
// Children get no loader flags: whatever they run must be plain JavaScript.
const plainNode = { execArgv: [] as string[], env: { ...process.env, NODE_OPTIONS: '' } };

beforeAll(() => {
  const r = spawnSync(process.execPath, [path.join(repo, 'main/app/build.mjs')], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
}, 120_000);

function staticImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

function bundleImports(file: string): string[] {
  return [...staticImports(file), ...[...readFileSync(file, 'utf8').matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!)];
}

describe('built bundles (out/engine)', () => {
  it('import no TypeScript and no tsx: only packages and Node built-ins', () => {
    for (const f of ['engine/engine-process.js', 'engine/worker.mjs', 'engine/index-worker.js', 'engine/loci.js', 'main/app/main.js']) {
      const specs = bundleImports(out(f));
      expect(specs.length, f).toBeGreaterThan(0);
      for (const s of specs) {
        expect(s, `${f} imports ${s}`).not.toMatch(/^tsx|\.tsx?$|^\.\.?\//);
      }
    }
    expect(bundleImports(out('engine/engine-process.js'))).toEqual(expect.arrayContaining(['better-sqlite3']));
    expect(bundleImports(out('engine/worker.mjs'))).toEqual(['node-llama-cpp']);
  });

  it('load llama.cpp, transformers.js, the note parsers and the bench peers only when they are needed, not on every start', () => {
    // Together ~0.5 s of each start of the CLI and the engine's process (esbuild hoists a package a bundled
    // module imports statically, even where that module is itself imported on demand); a question needs none.
    for (const f of ['engine/engine-process.js', 'engine/loci.js']) {
      // minisearch and Orama are devDependencies only `loci bench` uses: a packaged app has neither.
      for (const lazy of ['node-llama-cpp', '@huggingface/transformers', 'markdown-it', 'yaml', 'wink-nlp', 'wink-eng-lite-web-model', 'minisearch', '@orama/orama']) {
        expect(staticImports(out(f)), `${f} imports ${lazy} on start`).not.toContain(lazy);
      }
    }
    expect(bundleImports(out('engine/loci.js'))).toEqual(expect.arrayContaining(['node-llama-cpp', '@huggingface/transformers', 'minisearch', '@orama/orama']));
  });

  it('the bundled CLI indexes a folder large enough for the worker threads, which load the bundled task', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-bundle-workers-'));
    mkdirSync(path.join(dir, 'notes'));
    for (let i = 0; i < 60; i++) writeFileSync(path.join(dir, 'notes', `n${i}.md`), `# Note ${i}\n\nThe keeper ${i} trims lamp wick ${i} at dusk.\n`);
    const r = spawnSync(process.execPath, [out('engine/loci.js'), 'index', path.join(dir, 'notes'), '--db', path.join(dir, 'i.db'), '--json'], {
      ...plainNode,
      env: { ...plainNode.env, LOCI_INDEX_WORKERS: '1' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ changed: 60, counts: { documents: 60 } });
  }, 120_000);

  it('the engine bundle starts under plain Node and answers contract calls over its process transport', async () => {
    const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'loci-built-engine-')), 'index.db');
    const child = fork(out('engine/engine-process.js'), [], { ...plainNode, env: { ...plainNode.env, LOCI_DB: db }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = new Promise<void>((resolve, reject) => {
      child.on('message', (m: { type?: string }) => m?.type === 'ready' && resolve());
      child.once('exit', (code) => reject(new Error(`engine bundle exited (${code}) before ready`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const client = createClient(portTransport({ postMessage: (m) => child.send(m), on: (_e, l) => child.on('message', (m: PortMessage) => l(m)) }));
    await ready;
    expect(await client.call('host.info', {})).toMatchObject({ host: 'electron', canPickFolder: true });
    const stats = await client.call('stats', {});
    expect(stats.dbPath).toBe(db);
    expect(stats.embedder).toMatch(/^glove-100d/);
    // The catalogue is found from the bundle's place (resources/), as it is from process.resourcesPath when packaged.
    const models = await client.call('models.list', {});
    expect(models.catalogue.map((m) => m.id)).toContain('stories260K');
    const bad = await client.call('ask', { question: '' }).catch((e: Error) => e);
    expect((bad as Error).message).toMatch(/"ask": invalid request/);
    child.send({ type: 'shutdown' });
    expect(await exited).toBe(0);
  }, 60_000);

  it('the worker bundle loads the tiny GGUF and generates, under plain Node', async () => {
    const child: ChildProcess = fork(out('engine/worker.mjs'), [], { ...plainNode, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const messages: { type: string; [k: string]: unknown }[] = [];
    const next = (type: string) =>
      new Promise<{ type: string; [k: string]: unknown }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} from the worker; got ${JSON.stringify(messages)}`)), 60_000);
        const on = (m: { type: string }) => {
          messages.push(m);
          if (m.type === type || m.type === 'fatal') {
            clearTimeout(timer);
            child.off('message', on);
            resolve(m);
          }
        };
        child.on('message', on);
      });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const ready = next('ready');
    child.send({ type: 'init', opts: { modelPath: tinyModelFile(), threads: 1, sequences: 1, mode: 'completion' } });
    expect(await ready).toMatchObject({ type: 'ready', info: { sequences: 1, mode: 'completion' } });
    const done = next('done');
    child.send({ type: 'generate', id: 1, req: { prompt: 'Once upon a time', maxTokens: 12, stream: true } });
    const result = await done;
    expect(result.type).toBe('done');
    expect(typeof result.text).toBe('string');
    expect(result.tokens).toBeGreaterThan(0);
    expect(messages.some((m) => m.type === 'token')).toBe(true);
    child.send({ type: 'close' });
    expect(await exited).toBe(0);
  }, 120_000);

  it('browser mode runs from the bundled CLI (`node out/engine/loci.js serve`) and serves the UI over the built engine', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'loci-built-serve-'));
    const staticDir = path.join(dir, 'ui');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><head></head><title>built</title>');
    const child = fork(out('engine/loci.js'), ['serve', '--db', path.join(dir, 'index.db'), '--static', staticDir, '--port', '0'], { ...plainNode, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no URL printed:\n${text}`)), 60_000);
        child.stdout!.on('data', (c: Buffer) => {
          text += c.toString();
          const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(text);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<title>built</title>');
      const token = /<meta name="loci-token" content="([^"]+)">/.exec(html)?.[1];
      expect(token).toBeTruthy();
      const origin = new URL(url).origin;
      const stats = await fetch(`${origin}/api/call/stats`, { method: 'POST', headers: { 'x-loci-token': token!, 'content-type': 'application/json' }, body: '{}' });
      expect(stats.status).toBe(200);
      expect(((await stats.json()) as { result: { dbPath: string } }).result.dbPath).toBe(path.join(dir, 'index.db'));
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});
