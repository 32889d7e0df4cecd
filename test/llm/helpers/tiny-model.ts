// The real tiny GGUF for tests: the shared copy when present, else the copy vendored in the repository
// (test/fixtures/models, MIT, see its README). Never the network: tests must pass offline.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const SHARED_TINY_MODEL = join(import.meta.dirname, '../../../../shared/models/stories260K/stories260K.gguf');
export const VENDORED_TINY_MODEL = join(import.meta.dirname, '../../fixtures/models/stories260K.gguf');

export function tinyModelFile(): string {
  for (const file of [SHARED_TINY_MODEL, VENDORED_TINY_MODEL]) if (existsSync(file)) return file;
  throw new Error(`The tiny test model is missing: neither ${SHARED_TINY_MODEL} nor ${VENDORED_TINY_MODEL} exists (it is committed to the repository).`);
}

/** Async for the existing callers; resolves at once. */
export async function tinyModelPath(): Promise<string> {
  return tinyModelFile();
}
