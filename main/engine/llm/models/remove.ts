// Deleting an installed model from the models folder: a GGUF file, or an embedding model's folder.
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../../errors.js';
import { listInstalledEmbedders, listInstalledModels, resolveModelFile, type InstalledModel } from './installed.js';
import { modelsDir } from './paths.js';
import { TRANSFORMERS_PREFIX } from '../../embed/registry.js';

/** An installed model by its installed id (the GGUF's file name without `.gguf`, or the folder's name). */
export function findInstalledModel(id: string, dir = modelsDir()): (InstalledModel & { embedder: string | null }) | undefined {
  const gguf = listInstalledModels(dir).find((m) => m.id === id);
  if (gguf) return { ...gguf, embedder: null };
  return listInstalledEmbedders(dir).find((m) => m.id === id);
}

/**
 * What the settings use the model for — 'answers' (the `model` setting names it, by id, catalogue id or
 * path) or 'search' (the `embedder` setting is its spec) — or null.
 */
export function modelUse(settings: Record<string, unknown>, m: InstalledModel & { embedder: string | null }, dir = modelsDir()): 'answers' | 'search' | null {
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

/** Deletes an installed model that the settings do not use; returns what was deleted and the bytes freed. */
export function removeInstalledModel(id: string, settings: Record<string, unknown>, dir = modelsDir()): { id: string; file: string; freedBytes: number } {
  const m = findInstalledModel(id, dir);
  if (!m) throw new UserError(`No installed model ${id} in ${dir}.`);
  // Never anything but a direct child of the models folder.
  if (dirname(resolve(m.file)) !== resolve(dir)) throw new UserError(`${m.file} is not in the models folder ${dir}.`);
  const use = modelUse(settings, m, dir);
  if (use) throw new UserError(`${id} is in use for ${use}: choose another ${use === 'search' ? 'embedder' : 'model'} first.`);
  rmSync(m.file, { recursive: m.embedder !== null, force: false });
  return { id, file: m.file, freedBytes: m.sizeBytes };
}
