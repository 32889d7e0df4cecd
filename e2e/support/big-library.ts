// The ~2,000-note folder the scale journeys index, generated from text in the repo (the sample notes and
// the test fixtures, see scripts/generate-library.ts) into a temp dir, so the journeys run on a fresh
// clone. Never written into the repo.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateLibrary, type GeneratedLibrary } from '../../scripts/generate-library.js';

export function buildBigLibrary(target = 2000): GeneratedLibrary {
  return generateLibrary(mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-big-')), target);
}

/** A second, smaller generated folder: one to add, cancel or remove. */
export function buildExtraFolder(count: number): string {
  return generateLibrary(mkdtempSync(path.join(os.tmpdir(), 'loci-e2e-extra-')), count).dir;
}
