import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// "Never declare a channel twice": only main/contract names IPC channels or HTTP call paths; the
// shell, preload, server and UI use the constants and generated pieces from there.
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mjs)$/.test(f))
    .map((f) => path.join(dir, f));
}

const outside = ['main/app', 'main/server', 'preload', 'renderer/src'].flatMap(sources);

describe('one contract', () => {
  it('no IPC channel or HTTP call path is spelled outside main/contract', () => {
    const offenders: string[] = [];
    for (const file of outside) {
      const text = readFileSync(file, 'utf8');
      if (/['"`]loci:[a-z]/.test(text) || /['"`]\/api\//.test(text)) offenders.push(file);
      if (/ipcMain\.(handle|on)\(\s*['"`]/.test(text) || /ipcRenderer\.(invoke|send|on)\(\s*['"`]/.test(text)) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });

  it('only main/app and the preload import electron; the UI imports no Node or engine code', () => {
    const electronUsers = [...outside, ...sources('main/contract'), ...sources('main/engine')].filter((f) =>
      /from ['"]electron['"]/.test(readFileSync(f, 'utf8').replace(/^import type .*$/gm, '')),
    );
    expect(electronUsers.every((f) => f.startsWith('main/app/') || f.startsWith('preload/'))).toBe(true);
    expect(electronUsers.length).toBeGreaterThan(0);
    const ui = sources('renderer/src').filter((f) => /from ['"](node:|.*main\/engine\/(?!api|types))/.test(readFileSync(f, 'utf8')));
    expect(ui).toEqual([]);
  });
});
