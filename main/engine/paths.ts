import { homedir } from 'node:os';
import { join } from 'node:path';

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
