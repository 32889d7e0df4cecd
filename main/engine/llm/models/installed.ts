// What is in the models folder, and how a `--model <id|path>` argument maps to a file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findCatalogueEntry, loadCatalogue } from './catalogue.js';
import { modelsDir } from './paths.js';
import { isGguf } from './import.js';
import { UserError } from '../../errors.js';

export interface InstalledModel {
  id: string;
  file: string;
  sizeBytes: number;
}

export function listInstalledModels(dir = modelsDir()): InstalledModel[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.gguf'))
    .map((f) => ({ id: f.replace(/\.gguf$/i, ''), file: join(dir, f), sizeBytes: statSync(join(dir, f)).size }));
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
