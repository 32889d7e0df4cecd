// Where staged bench models live (scripts/fetch-bench-models lays them out). A local stand-in for
// test/support/bench-models.ts until that lands on main; tests skip with this reason when a model is absent.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const BENCH_MODELS_DIR = process.env.LOCI_BENCH_MODELS ?? join(homedir(), '.cache', 'loci-bench-models');

export const GEMMA_270M = join(BENCH_MODELS_DIR, 'gemma-3-270m', 'gemma-3-270m.gguf');

/** The staged Gemma 3 270M GGUF, or null (with the reason printed once) when it is not staged. */
export function stagedGemma(): string | null {
  if (existsSync(GEMMA_270M)) return GEMMA_270M;
  console.log(`[skip] ${GEMMA_270M} is not staged: run scripts/fetch-bench-models (or set LOCI_BENCH_MODELS) to run the real-model tests.`);
  return null;
}
