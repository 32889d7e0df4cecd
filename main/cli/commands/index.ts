import type { Command } from 'commander';
import { registerIndex } from './index-cmd.js';
import { registerAsk } from './ask.js';
import { registerMindmap } from './mindmap.js';
import { registerStats } from './stats.js';
import { registerWatch } from './watch.js';
import { registerBenchIndex } from './bench-index.js';
import { registerBench } from './bench.js';
import { registerBenchAnswerable } from './bench-answerable.js';
import { registerBenchGrounding } from './bench-grounding.js';
import { registerBenchScale } from './bench-scale.js';
import { registerModels } from './models.js';
import { registerBenchLlm } from './bench-llm.js';
import { registerServe } from './serve.js';
import { registerCheck } from './check.js';
import { registerEstimate } from './estimate.js';
import { registerBenchEstimate } from './bench-estimate.js';

/** Every `loci` subcommand registers itself here: one line per command file. */
export function registerCommands(program: Command): void {
  registerIndex(program);
  registerAsk(program);
  registerMindmap(program);
  registerStats(program);
  registerWatch(program);
  registerBenchIndex(program);
  registerBench(program);
  registerBenchAnswerable(program);
  registerBenchGrounding(program);
  registerBenchScale(program);
  registerModels(program);
  registerBenchLlm(program);
  registerServe(program);
  registerCheck(program);
  registerEstimate(program);
  registerBenchEstimate(program);
}
