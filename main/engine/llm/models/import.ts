// Brings a GGUF file the user already has into the models folder, after checking it is a GGUF.
import { copyFileSync, existsSync, mkdirSync, openSync, readSync, closeSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { sha256File } from './pull.js';

export function isGguf(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const magic = Buffer.alloc(4);
    return readSync(fd, magic, 0, 4, 0) === 4 && magic.toString('latin1') === 'GGUF';
  } finally {
    closeSync(fd);
  }
}

export interface ImportedModel {
  id: string;
  path: string;
  sha256: string;
}

export async function importModel(file: string, destDir: string): Promise<ImportedModel> {
  const src = resolve(file);
  if (!existsSync(src)) throw new Error(`No such file: ${file}`);
  if (!isGguf(src)) throw new Error(`${file} is not a GGUF model (the file does not start with the GGUF magic bytes).`);
  mkdirSync(destDir, { recursive: true });
  const dest = join(destDir, basename(src));
  if (resolve(dest) !== src) copyFileSync(src, dest);
  return { id: basename(src).replace(/\.gguf$/i, ''), path: dest, sha256: await sha256File(dest) };
}
