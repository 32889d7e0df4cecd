// Deleting an installed model from the models folder: a GGUF file, or an embedding model's folder.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../../errors.js';
import { TRANSFORMERS_PREFIX } from '../../embed/registry.js';
import { listInstalled, resolveModelFile, type InstalledEntry } from './installed.js';
import { modelsDir } from './paths.js';

/**
 * What the settings use the model for — 'answers' (the `model` setting names it, by id, catalogue id or
 * path) or 'search' (the `embedder` setting names its folder) — or null.
 */
export function modelUse(settings: Record<string, unknown>, m: InstalledEntry, dir = modelsDir()): 'answers' | 'search' | null {
  if (m.embedder !== null) {
    // The same folder however the setting spells it (a trailing slash, a relative path).
    const spec = typeof settings.embedder === 'string' ? settings.embedder.trim() : '';
    return spec.startsWith(TRANSFORMERS_PREFIX) && resolve(spec.slice(TRANSFORMERS_PREFIX.length)) === resolve(m.file) ? 'search' : null;
  }
  const model = typeof settings.model === 'string' ? settings.model.trim() : '';
  if (!model) return null;
  try {
    return resolve(resolveModelFile(model, dir)) === resolve(m.file) ? 'answers' : null;
  } catch {
    return null; // a server URL, or a model that is not installed
  }
}

/**
 * Deletes an installed model that the settings do not use; returns what was deleted and the bytes freed.
 * Only what the models folder's own listing names can be deleted: an id is never made into a path.
 */
export function removeInstalledModel(id: string, settings: Record<string, unknown>, dir = modelsDir()): { id: string; file: string; freedBytes: number } {
  const m = listInstalled(dir).find((i) => i.id === id);
  if (!m) throw new UserError(`No installed model ${id} in ${dir}.`);
  const use = modelUse(settings, m, dir);
  if (use) throw new UserError(`${id} is in use for ${use}: choose another ${use === 'search' ? 'embedder' : 'model'} first.`);
  rmSync(m.file, { recursive: m.kind === 'transformers.js' });
  return { id, file: m.file, freedBytes: m.sizeBytes };
}
