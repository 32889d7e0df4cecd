import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { jsonOption, print } from '../options.js';
import { termField } from '../terminal.js';
import type { FolderEstimate } from './estimate.js';

export interface EstimateBench {
  folder: string;
  embedder: string;
  /** The probe before the full index and the one after it: the machine's load drifts, and the two bracket the run. */
  before: FolderEstimate;
  after: FolderEstimate;
  /** Their mean, in seconds. */
  estimateSeconds: number;
  /** Opening a new index with the embedder (its load included), as `loci index` does before the run. */
  openSeconds: number;
  /** The full index run (fast mode) of the folder into that new index. */
  indexSeconds: number;
  measuredSeconds: number;
  /** Estimate over measured (1 is exact): of the mean, and of each probe alone. */
  ratio: number;
  ratioBefore: number;
  ratioAfter: number;
}

/**
 * `loci bench-estimate`: the estimate against the real thing, back to back so both share the machine's
 * load: a probe, the full index, a probe again. Each probe runs as `loci estimate` in a process of its own
 * (cold, as on a first use); the full index runs in this one, into a temporary database, with nothing
 * indexed in it before.
 */
export function registerBenchEstimate(program: Command): void {
  program
    .command('bench-estimate')
    .description("compare the index-time estimate (loci estimate) with the measured full index of the folder: estimate, measured, ratio")
    .argument('<folder>', 'notes folder')
    .option('--embedder <spec>', "embedder: 'glove' (default), 'transformers:<model folder>', 'openai:…'", 'glove')
    .addOption(jsonOption())
    .action(async (folder: string, opts: { embedder: string; json?: boolean }) => {
      const result = await benchEstimate(path.resolve(folder), opts.embedder);
      print(!!opts.json, result, () => formatBench(result));
    });
}

async function probeInChild(folder: string, spec: string): Promise<FolderEstimate> {
  const { stdout } = await promisify(execFile)(process.execPath, [process.argv[1]!, 'estimate', folder, '--embedder', spec, '--json'], { maxBuffer: 1 << 24 });
  return (JSON.parse(stdout) as FolderEstimate[])[0]!;
}

async function benchEstimate(folder: string, spec: string): Promise<EstimateBench> {
  const before = await probeInChild(folder, spec);
  const work = await mkdtemp(path.join(tmpdir(), 'loci-bench-estimate-'));
  try {
    const { LociEngine } = await import('../../engine/engine.js');
    const t = performance.now();
    const engine = await LociEngine.open({ dbPath: path.join(work, 'index.db'), embedder: spec });
    const openSeconds = (performance.now() - t) / 1000;
    let closed = false;
    try {
      const report = await engine.library.index(folder);
      // Closed before the second probe, so nothing of this engine runs beside it.
      await engine.close();
      closed = true;
      const after = await probeInChild(folder, spec);
      const measuredSeconds = openSeconds + report.seconds;
      const estimateSeconds = (before.seconds + after.seconds) / 2;
      return {
        folder,
        embedder: spec,
        before,
        after,
        estimateSeconds,
        openSeconds,
        indexSeconds: report.seconds,
        measuredSeconds,
        ratio: estimateSeconds / measuredSeconds,
        ratioBefore: before.seconds / measuredSeconds,
        ratioAfter: after.seconds / measuredSeconds,
      };
    } finally {
      if (!closed) await engine.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function formatBench(b: EstimateBench): string {
  const probe = (label: string, e: FolderEstimate) => {
    const p = e.probe;
    return `  ${label} ${e.seconds.toFixed(1)} s  (probe ${p.probeSeconds.toFixed(1)} s on ${p.sampleNotes} notes: load ${p.loadSeconds.toFixed(2)} s, set-up ${p.setupSeconds.toFixed(2)} s, ${(p.secondsPerByte * 1e6).toFixed(2)} s/MB)`;
  };
  return [
    `${termField(b.folder)} with ${termField(b.embedder)} (${b.before.notes} notes, ${(b.before.bytes / 1024).toFixed(0)} KB)`,
    probe('estimate before', b.before),
    `  measured        ${b.measuredSeconds.toFixed(1)} s  (open with the embedder ${b.openSeconds.toFixed(2)} s, index ${b.indexSeconds.toFixed(1)} s)`,
    probe('estimate after ', b.after),
    `  ratio ${b.ratio.toFixed(2)} (mean of the two estimates; before ${b.ratioBefore.toFixed(2)}, after ${b.ratioAfter.toFixed(2)})`,
  ].join('\n');
}
