// Builds the renderer (vite) when its output is missing or older than its sources, so `npm start` and
// `loci serve` work on a fresh clone. A packaged app ships the build and never gets here.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const RENDERER_OUT = path.join(repo, 'out', 'renderer');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export async function ensureRendererBuilt(log: (line: string) => void = console.log): Promise<void> {
  const index = path.join(RENDERER_OUT, 'index.html');
  const sourcesDir = path.join(repo, 'renderer');
  if (!existsSync(sourcesDir)) return;
  const sources = Math.max(newestMtime(sourcesDir), newestMtime(path.join(repo, 'main', 'contract')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  log('Building the UI (vite build)…');
  const { build } = await import('vite');
  await build({ configFile: path.join(sourcesDir, 'vite.config.ts'), logLevel: 'warn' });
}
