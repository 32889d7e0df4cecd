// What is in the models folder, and how a `--model <id|path>` argument maps to a file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { findCatalogueEntry, loadCatalogue, type CatalogueEntry } from './catalogue.js';
import { modelsDir } from './models-dir.js';
import { isGguf } from './import.js';
import { UserError } from '../../errors.js';
import { transformersSpec } from '../../embed/registry.js';

export interface InstalledModel {
  id: string;
  /** The GGUF file, or the folder of a transformers.js model. */
  file: string;
  sizeBytes: number;
}

export interface InstalledEmbedder extends InstalledModel {
  /** The embedder spec that uses it (settings `embedder`, `--embedder`). */
  embedder: string;
}

/** The GGUF language models in the models folder (the files `--model <id>` resolves). */
export function listInstalledModels(dir = modelsDir()): InstalledModel[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.gguf'))
    .map((f) => ({ id: f.replace(/\.gguf$/i, ''), file: join(dir, f), sizeBytes: statSync(join(dir, f)).size }));
}

/** Bytes under a folder. */
function folderSize(dir: string): number {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}

/**
 * The transformers.js embedding models in the models folder: folders `loci models pull` completed (or
 * a user laid out) with a config, a tokenizer and ONNX weights. A download still under way has no
 * weights yet (each file is renamed into place only when whole), so it is not listed.
 */
export function listInstalledEmbedders(dir = modelsDir()): InstalledEmbedder[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(dir, e.name))
    .filter((folder) => ['config.json', 'tokenizer.json'].every((f) => existsSync(join(folder, f))) && ['model.onnx', 'model_quantized.onnx'].some((f) => existsSync(join(folder, 'onnx', f))))
    .map((folder) => ({ id: basename(folder), file: folder, sizeBytes: folderSize(folder), embedder: transformersSpec(folder) }));
}

/** Any installed model, with what it is: a GGUF or an embedding model's folder, and which catalogue entry. */
export interface InstalledEntry extends InstalledModel {
  kind: 'gguf' | 'transformers.js';
  /** The embedder spec that uses it; null for a language model. */
  embedder: string | null;
  /** The catalogue entry it is (a GGUF by its file name, which need not be its id; a folder by its name); null when imported. */
  catalogueId: string | null;
}

/** Every installed model, GGUF files first (so a GGUF wins an id a folder shares). */
export function listInstalled(dir = modelsDir(), catalogue: CatalogueEntry[] = loadCatalogue()): InstalledEntry[] {
  const entryOf = (kind: InstalledEntry['kind'], matches: (c: CatalogueEntry) => boolean) => catalogue.find((c) => c.kind === kind && matches(c))?.id ?? null;
  return [
    ...listInstalledModels(dir).map((m) => ({ ...m, kind: 'gguf' as const, embedder: null, catalogueId: entryOf('gguf', (c) => c.file === basename(m.file)) })),
    ...listInstalledEmbedders(dir).map((m) => ({ ...m, kind: 'transformers.js' as const, catalogueId: entryOf('transformers.js', (c) => c.id === m.id) })),
  ];
}

/** A path to an existing file, a catalogue id, or the name of an installed GGUF → the GGUF path. */
export function resolveModelFile(spec: string, dir = modelsDir()): string {
  if (existsSync(spec) && statSync(spec).isFile()) {
    // Checked here so llama.cpp's "expected GGUF but got <the file's first bytes>" never reaches a caller.
    if (!isGguf(spec)) throw new UserError(`${spec} is not a GGUF model file.`);
    return resolve(spec);
  }
  const entry = findCatalogueEntry(spec, loadCatalogue());
  if (entry?.kind === 'gguf' && entry.file && existsSync(join(dir, entry.file))) return join(dir, entry.file);
  const installed = listInstalledModels(dir).find((m) => m.id === spec);
  if (installed) return installed.file;
  if (entry) throw new Error(`Model ${spec} is not installed. Run: loci models pull ${spec}`);
  throw new Error(`Unknown model ${spec}: give a .gguf path, an installed model, or a catalogue id (loci models list).`);
}
