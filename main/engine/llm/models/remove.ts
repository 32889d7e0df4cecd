// Deleting an installed model from the models folder: a GGUF file, or an embedding model's folder.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../../errors.js';
import { TRANSFORMERS_PREFIX } from '../../embed/registry.js';
import { listInstalled, resolveModelFile, type InstalledEntry } from './installed.js';
import { modelsDir } from './paths.js';

/**
 * The model specs in use: for answers (model ids, catalogue ids or paths) and for search (embedder
 * specs). More than the settings name while the engine is mid-switch: the embedder in force until the
 * new one's vectors are complete, or a language model opened under the previous setting.
 */
export interface ModelsInUse {
  answers: string[];
  search: string[];
}

/** What stored settings alone use (an index no engine has open). */
export function modelsInSettings(settings: Record<string, unknown>): ModelsInUse {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? [v.trim()] : []);
  return { answers: text(settings.model), search: text(settings.embedder) };
}

/** What the model is in use for — 'answers' or 'search' — or null. */
export function modelUse(inUse: ModelsInUse, m: InstalledEntry, dir = modelsDir()): 'answers' | 'search' | null {
  if (m.embedder !== null) {
    // The same folder however a spec spells it (a trailing slash, a relative path).
    const names = (spec: string) => spec.startsWith(TRANSFORMERS_PREFIX) && resolve(spec.slice(TRANSFORMERS_PREFIX.length)) === resolve(m.file);
    return inUse.search.some((s) => names(s.trim())) ? 'search' : null;
  }
  const names = (model: string) => {
    try {
      return resolve(resolveModelFile(model.trim(), dir)) === resolve(m.file);
    } catch {
      return false; // a server URL, or a model that is not installed
    }
  };
  return inUse.answers.some(names) ? 'answers' : null;
}

/**
 * Deletes an installed model that is not in use; returns what was deleted and the bytes freed.
 * Only what the models folder's own listing names can be deleted: an id is never made into a path.
 */
export function removeInstalledModel(id: string, inUse: ModelsInUse, dir = modelsDir()): { id: string; file: string; freedBytes: number } {
  const m = listInstalled(dir).find((i) => i.id === id);
  if (!m) throw new UserError(`No installed model ${id} in ${dir}.`);
  const use = modelUse(inUse, m, dir);
  if (use) throw new UserError(`${id} is in use for ${use}: choose another ${use === 'search' ? 'embedder' : 'model'} first.`);
  rmSync(m.file, { recursive: m.kind === 'transformers.js' });
  return { id, file: m.file, freedBytes: m.sizeBytes };
}
