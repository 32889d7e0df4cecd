// Where models live: <Loci's data folder>/models (LOCI_HOME when set, as for the index: engine/paths.ts),
// overridable with LOCI_MODELS_DIR or LOCI_DATA_DIR.
import { join } from 'node:path';
import { dataDir } from '../../paths.js';

export function userDataDir(): string {
  return process.env.LOCI_DATA_DIR ?? dataDir();
}

export function modelsDir(): string {
  return process.env.LOCI_MODELS_DIR ?? join(userDataDir(), 'models');
}
