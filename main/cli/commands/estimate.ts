import path from 'node:path';
import type { Command } from 'commander';
import { jsonOption, print } from '../options.js';
import { termField } from '../terminal.js';
import { timeLeft } from '../progress.js';
import type { ProbeResult } from '../../engine/api.js';

export interface FolderEstimate {
  embedder: string;
  /** Estimated seconds to index the folder from scratch (fast mode) with this embedder. */
  seconds: number;
  notes: number;
  bytes: number;
  probe: ProbeResult;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `loci estimate`: the index time of a folder per embedder, from a short timed probe (index/estimate.ts). */
export function registerEstimate(program: Command): void {
  program
    .command('estimate')
    .description('estimate how long indexing a folder takes with each embedder, from a short timed probe of the real index run on a sample of its notes')
    .argument('<folder>', 'notes folder')
    .option('--embedder <spec>', "embedder to estimate (repeat for several): 'glove', 'transformers:<model folder>', 'openai:…'", collect, [])
    .option('--budget <seconds>', 'seconds the measured part of each probe aims at', '8')
    .addOption(jsonOption())
    .action(async (folder: string, opts: { embedder: string[]; budget: string; json?: boolean }) => {
      const specs = opts.embedder.length ? opts.embedder : ['glove'];
      const estimates: FolderEstimate[] = [];
      for (const spec of specs) estimates.push(await estimateFolder(path.resolve(folder), spec, { budgetSeconds: Number(opts.budget) }));
      print(!!opts.json, estimates, () => estimates.map(formatEstimate).join('\n'));
    });
}

export async function estimateFolder(folder: string, spec: string, opts: { budgetSeconds?: number } = {}): Promise<FolderEstimate> {
  const { extrapolate, measureLibrary, probeIndexTime } = await import('../../engine/index/estimate.js');
  const library = await measureLibrary([{ root: folder }]);
  const probe = await probeIndexTime(spec, library, opts);
  return { embedder: spec, seconds: extrapolate(probe, library), notes: library.notes, bytes: library.bytes, probe };
}

export function formatEstimate(e: FolderEstimate): string {
  const p = e.probe;
  return (
    `${termField(e.embedder)}: about ${timeLeft(e.seconds)} for ${e.notes} notes (${kb(e.bytes)})` +
    `\n  probe: ${p.sampleNotes} notes (${kb(p.sampleBytes)}) in ${p.probeSeconds.toFixed(1)} s — load ${p.loadSeconds.toFixed(2)} s, set-up ${p.setupSeconds.toFixed(2)} s, ${(p.secondsPerByte * 1e6).toFixed(2)} s per MB`
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
