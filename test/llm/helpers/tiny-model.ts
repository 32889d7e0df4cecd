// The real tiny GGUF for tests: the shared copy when present, otherwise fetched once through our own
// downloader from the catalogue (llama.cpp's public stories260K test model) — never silently skipped.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCatalogueEntry } from '../../../main/engine/llm/models/catalogue.js';
import { pullModel } from '../../../main/engine/llm/models/pull.js';

export const SHARED_TINY_MODEL = join(import.meta.dirname, '../../../../shared/models/stories260K/stories260K.gguf');

export async function tinyModelPath(): Promise<string> {
  if (existsSync(SHARED_TINY_MODEL)) return SHARED_TINY_MODEL;
  const entry = findCatalogueEntry('stories260K');
  if (!entry) throw new Error('catalogue lacks stories260K');
  console.log(`[test] ${SHARED_TINY_MODEL} is absent: downloading ${entry.url}`);
  const pulled = await pullModel(entry, join(tmpdir(), 'loci-test-models'));
  return pulled.path;
}
