// Default llama.cpp threads and parallel sequences for a local model, from `loci bench-llm --tuning` on
// Gemma 3 270M (2 cores, the p3f model pass over 4 fixed notes; docs/benchmarks.md):
//  - threads: 2 threads beat 1 by ~1.2× on a quiet machine (37.2 vs 30.5 tokens/s at load 2.2) but lost
//    ~2× when other work shared the cores (9.1 vs 19.1 tokens/s at load 9→5), and 2 threads × 2 sequences
//    collapsed to 1.6 tokens/s as the load rose. The model pass runs in the background while the user
//    works, so it takes half the cores: the small loss when idle is worth not stalling when busy.
//  - sequences: a second sequence on one thread lowered total throughput in both runs (9.1 vs 19.1 and
//    17.1 vs 30.5 tokens/s), so one.
import { availableParallelism } from 'node:os';

export interface ModelTuning {
  threads: number;
  sequences: number;
}

export function defaultModelTuning(cores: number = availableParallelism()): ModelTuning {
  return { threads: Math.max(1, Math.floor(cores / 2)), sequences: 1 };
}
