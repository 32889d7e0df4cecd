// The benchmarks' place in the layers, as eslint.config.js holds it: the product engine never imports
// main/bench, and the CLI loads bench code only inside a bench command's action (a static import would
// load it, and its devDependencies, on every `loci` command). Linted with the repository's own config,
// on source text given the path it would have.
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: REPO });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO, file) });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('bench layering (eslint.config.js)', () => {
  it('the engine may not import the benchmarks', async () => {
    const messages = await restricted('main/engine/retrieve/probe.ts', "import { pct } from '../../bench/runner.js';\nexport const x = pct;\n");
    expect(messages).toEqual([expect.stringMatching(/must not import the benchmarks/)]);
  });

  it('the CLI imports bench code on use: a static import is refused, the option lists, a type and import() are not', async () => {
    expect(await restricted('main/cli/commands/probe.ts', "import { runSuite } from '../../bench/suite.js';\nexport const x = runSuite;\n")).toEqual([
      expect.stringMatching(/await import\(\) in the bench command's action/),
    ]);
    const allowed = [
      "import { ALL_BENCH_METHODS } from '../../bench/names.js';",
      "import type { SuiteReport } from '../../bench/suite.js';",
      "export async function run(): Promise<SuiteReport['reports']> { const { runSuite } = await import('../../bench/suite.js'); void runSuite; void ALL_BENCH_METHODS; return []; }",
    ].join('\n');
    expect(await restricted('main/cli/commands/probe.ts', `${allowed}\n`)).toEqual([]);
  });

  it('the benchmarks may not import the hosts', async () => {
    const messages = await restricted('main/bench/probe.ts', "import { registerBench } from '../cli/commands/bench.js';\nexport const x = registerBench;\n");
    expect(messages).toEqual([expect.stringMatching(/must not import the hosts/)]);
  });
});
