// The contract's models.* calls over the engine's model tools (catalogue, resumable checksum-checked
// download, GGUF import). Shared by browser mode and the Electron engine process.
import { findCatalogueEntry, loadCatalogue } from '../engine/llm/models/catalogue.js';
import { importModel } from '../engine/llm/models/import.js';
import { listInstalled } from '../engine/llm/models/installed.js';
import { modelsDir } from '../engine/llm/models/models-dir.js';
import { pullModel } from '../engine/llm/models/pull.js';
import { modelUses, removeInstalledModel, type ModelsInUse } from '../engine/llm/models/remove.js';
import type { Emit } from '../contract/dispatcher.js';
import { ConflictError, NotFoundError, UserError } from '../engine/errors.js';
import type { ContractServices } from './contract-services.js';

export type ModelService = ContractServices['models'] & { stop(): void };

/** `inUse`: the models the engine uses (its settings service's modelsInUse), so none of them is deleted. */
export function modelService(emit: Emit, inUse: () => ModelsInUse, dir: () => string = modelsDir): ModelService {
  const downloads = new Map<string, AbortController>();
  return {
    list: () => {
      const catalogue = loadCatalogue();
      const folder = dir();
      const useOf = modelUses(inUse(), folder);
      return {
        dir: folder,
        catalogue: catalogue.map((m) => ({
          id: m.id,
          kind: m.kind,
          role: m.role,
          name: m.name,
          description: m.description,
          languages: m.languages,
          licence: m.licence,
          sizeBytes: m.sizeBytes,
          sizeLabel: m.sizeLabel ?? null,
          ramLabel: m.ramLabel ?? null,
          verified: m.verified,
          recommended: m.recommended ?? false,
        })),
        installed: listInstalled(folder, catalogue).map((m) => ({ ...m, inUse: useOf(m) })),
        downloading: [...downloads.keys()],
      };
    },
    pull: async ({ id }) => {
      const entry = findCatalogueEntry(id);
      if (!entry) throw new NotFoundError(`${id} is not in the model catalogue; pick one from the list.`);
      if (downloads.has(id)) throw new ConflictError(`${id} is already downloading.`);
      const controller = new AbortController();
      downloads.set(id, controller);
      try {
        const r = await pullModel(entry, dir(), {
          signal: controller.signal,
          onProgress: (p) => emit('models.progress', { id, file: p.file, received: p.received, total: p.total, resumed: p.resumed }),
        });
        return { id: r.id, path: r.path, verified: r.files.every((f) => f.verified), resumed: r.files.some((f) => f.resumed) };
      } finally {
        downloads.delete(id);
      }
    },
    remove: ({ id }) => removeInstalledModel(id, inUse(), dir()),
    cancelPull: ({ id }) => {
      const c = downloads.get(id);
      c?.abort();
      return { cancelled: Boolean(c) };
    },
    import: async ({ file }) => {
      // A page must not learn from the answer whether an arbitrary path exists, is readable or what it
      // starts with: every refusal reads the same.
      let r: Awaited<ReturnType<typeof importModel>>;
      try {
        r = await importModel(file, dir());
      } catch {
        throw new UserError(`${file} is not a readable GGUF model file.`);
      }
      return { id: r.id, path: r.path };
    },
    stop() {
      for (const c of downloads.values()) c.abort();
    },
  };
}
