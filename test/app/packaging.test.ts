import { readFileSync } from 'node:fs';
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
    for (const mod of ['better-sqlite3', 'node-llama-cpp', '@node-llama-cpp']) {
      expect(config.asarUnpack.some((g: string) => minimatch(`node_modules/${mod}/build/Release/x.node`, g))).toBe(true);
    }
    expect(config.npmRebuild).toBe(true);
  });

  it('ships everything the shell loads at run time, and no models', () => {
    for (const f of ['package.json', pkg.main, 'out/preload/preload.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc.js', 'main/app/engine-process.mjs', 'main/app/engine-process.ts', 'main/engine/engine.ts', 'resources/models/catalogue.json', 'resources/embeddings/glove-100d.bin']) {
      expect(shipped(f), f).toBe(true);
    }
    for (const f of ['resources/models/qwen.gguf', 'out/renderer/assets/index-abc.js.map', 'test/contract/contract.test.ts', 'e2e/browser-mode.spec.ts', 'renderer/src/App.tsx']) {
      expect(shipped(f), f).toBe(false);
    }
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
