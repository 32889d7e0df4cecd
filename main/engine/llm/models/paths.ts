// Where models live: <user data folder>/models, overridable with LOCI_MODELS_DIR or LOCI_DATA_DIR.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function userDataDir(): string {
  if (process.env.LOCI_DATA_DIR) return process.env.LOCI_DATA_DIR;
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Loci');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Loci');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'loci');
}

export function modelsDir(): string {
  return process.env.LOCI_MODELS_DIR ?? join(userDataDir(), 'models');
}
