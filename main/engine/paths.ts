import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where Loci keeps its index and models: LOCI_HOME, else the platform's per-user data folder. */
export function dataDir(): string {
  if (process.env.LOCI_HOME) return process.env.LOCI_HOME;
  const home = homedir();
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Loci');
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Loci');
  return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'loci');
}

export function defaultDbPath(): string {
  return join(dataDir(), 'index.db');
}

/**
 * The one place that decides where the app's own files are, in the source tree, in a build (`out/`)
 * and in a packaged app:
 * - LOCI_RESOURCES, when set (the Electron shell sets it to process.resourcesPath when packaged);
 * - else process.resourcesPath, when it holds Loci's resources (a packaged app's extraResources);
 * - else the repository's `resources/`, found upwards from this module (source tree or bundle in out/).
 */
export function resourcesDir(): string {
  const explicit = process.env.LOCI_RESOURCES;
  if (explicit) return explicit;
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged && existsSync(join(packaged, RESOURCE_MARKER))) return packaged;
  return repoResources();
}

/** A file or folder under the resources directory, e.g. resourcePath('models', 'catalogue.json'). */
export function resourcePath(...parts: string[]): string {
  return join(resourcesDir(), ...parts);
}

const RESOURCE_MARKER = join('models', 'catalogue.json');
let foundResources: string | undefined;

function repoResources(): string {
  if (foundResources) return foundResources;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'resources');
    if (existsSync(join(candidate, RESOURCE_MARKER))) return (foundResources = candidate);
    const up = dirname(dir);
    if (up === dir) throw new Error(`Loci's resources folder (with ${RESOURCE_MARKER}) was not found above ${fileURLToPath(import.meta.url)}; set LOCI_RESOURCES.`);
    dir = up;
  }
}
