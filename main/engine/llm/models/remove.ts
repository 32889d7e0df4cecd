// Deleting an installed model from the models folder: a GGUF file, or an embedding model's folder.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConflictError, NotFoundError } from '../../errors.js';
import { TRANSFORMERS_PREFIX } from '../../embed/registry.js';
import { listInstalled, resolveModelFile, type InstalledEntry } from './installed.js';
import { modelsDir } from './models-dir.js';

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

/**
 * What each installed model is in use for — 'answers' or 'search' — or null. The in-use specs are
 * resolved to files once (a model id through the catalogue and the folder's listing), not per model.
 */
export function modelUses(inUse: ModelsInUse, dir = modelsDir()): (m: InstalledEntry) => 'answers' | 'search' | null {
  // The same folder however a spec spells it (a trailing slash, a relative path).
  const folders = new Set(
    inUse.search
      .map((spec) => spec.trim())
      .filter((spec) => spec.startsWith(TRANSFORMERS_PREFIX))
      .map((spec) => resolve(spec.slice(TRANSFORMERS_PREFIX.length))),
  );
  const files = new Set(
    inUse.answers.flatMap((model) => {
      try {
        return [resolve(resolveModelFile(model.trim(), dir))];
      } catch {
        return []; // a server URL, or a model that is not installed
      }
    }),
  );
  return (m) => {
    if (m.embedder !== null) return folders.has(resolve(m.file)) ? 'search' : null;
    return files.has(resolve(m.file)) ? 'answers' : null;
  };
}

/**
 * Deletes an installed model that is not in use; returns what was deleted and the bytes freed.
 * Only what the models folder's own listing names can be deleted: an id is never made into a path.
 */
export function removeInstalledModel(id: string, inUse: ModelsInUse, dir = modelsDir()): { id: string; file: string; freedBytes: number } {
  const m = listInstalled(dir).find((i) => i.id === id);
  if (!m) throw new NotFoundError(`No installed model ${id} in ${dir}.`);
  const use = modelUses(inUse, dir)(m);
  if (use) throw new ConflictError(`${id} is in use for ${use}: choose another ${use === 'search' ? 'embedder' : 'model'} first.`);
  rmSync(m.file, { recursive: m.kind === 'transformers.js' });
  return { id, file: m.file, freedBytes: m.sizeBytes };
}
