// bench-llm --tuning: notes per minute of the model pass for each llama.cpp thread count × parallel
// sequence count, on the same notes through the product's path (the model process, extractWithModel,
// as many notes in flight as sequences). Cells alternate over rounds and the best of each is kept, so a
// burst of load elsewhere on a shared machine does not decide the choice; the load average is reported.
import { availableParallelism, loadavg } from 'node:os';
import type { Embedder } from '../engine/embed/embedder.js';
import { extractWithModel } from '../engine/extract/llm/extract.js';
import type { ParsedNote } from '../engine/types.js';
import { LocalLlamaProvider } from '../engine/llm/local/local-provider.js';
import { mapPool } from '../engine/jobs/map-pool.js';

export interface TuningOptions {
  modelPath: string;
  notes: ParsedNote[];
  embedder: Embedder;
  threads: number[];
  sequences: number[];
  rounds?: number;
  onStep?: (s: string) => void;
}

export interface TuningCell {
  threads: number;
  sequences: number;
  notesPerMinute: number;
  tokensPerSecond: number;
  tokens: number;
  seconds: number;
}

export interface TuningReport {
  model: string;
  notes: number;
  cores: number;
  rounds: number;
  /** 1-minute load average before and after the run. */
  loadBefore: number;
  loadAfter: number;
  cells: TuningCell[];
  best: TuningCell;
}

export async function runTuningBench(opts: TuningOptions): Promise<TuningReport> {
  const rounds = Math.max(1, opts.rounds ?? 2);
  const loadBefore = loadavg()[0]!;
  const best = new Map<string, TuningCell>();
  let model = '';
  for (let round = 1; round <= rounds; round++) {
    for (const threads of opts.threads) {
      for (const sequences of opts.sequences) {
        opts.onStep?.(`round ${round}/${rounds}: ${threads} thread(s), ${sequences} sequence(s)`);
        const llm = await LocalLlamaProvider.open({ modelPath: opts.modelPath, threads, sequences });
        model = llm.id;
        try {
          await llm.generate({ prompt: 'Once upon a time', maxTokens: 4 }); // loading is not billed
          let tokens = 0;
          const t0 = performance.now();
          // As the model pass does: as many notes in flight as there are sequences.
          await mapPool(opts.notes, sequences, async (note) => {
            tokens += (await extractWithModel(note, llm, opts.embedder, { concurrency: sequences })).stats.tokens;
          });
          const seconds = (performance.now() - t0) / 1000;
          const cell = { threads, sequences, tokens, seconds, notesPerMinute: (60 * opts.notes.length) / seconds, tokensPerSecond: tokens / seconds };
          const key = `${threads}x${sequences}`;
          const prev = best.get(key);
          if (!prev || cell.notesPerMinute > prev.notesPerMinute) best.set(key, cell);
        } finally {
          await llm.close();
        }
      }
    }
  }
  const cells = [...best.values()];
  return {
    model,
    notes: opts.notes.length,
    cores: availableParallelism(),
    rounds,
    loadBefore,
    loadAfter: loadavg()[0]!,
    cells,
    best: cells.reduce((a, b) => (b.notesPerMinute > a.notesPerMinute ? b : a)),
  };
}

export function formatTuning(r: TuningReport): string {
  return [
    `bench:llm --tuning — model ${r.model}, ${r.notes} notes, ${r.cores} cores, best of ${r.rounds} rounds, load ${r.loadBefore.toFixed(2)} → ${r.loadAfter.toFixed(2)}`,
    '  threads  sequences  notes/min  tokens/s',
    ...r.cells.map(
      (c) =>
        `  ${String(c.threads).padStart(7)}  ${String(c.sequences).padStart(9)}  ${c.notesPerMinute.toFixed(2).padStart(9)}  ${c.tokensPerSecond.toFixed(1).padStart(8)}${c === r.best ? '  ← best' : ''}`,
    ),
  ].join('\n');
}
