// The retrieval registry is the one list of methods: the contract's enum, the CLI's --method choices,
// the bench's lists, the settings' options and `--explain` all agree with it, and no source file keeps
// a list of its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { retrievalMethod } from '../../main/contract/shapes/domain.js';
import { METHOD_NAMES, RETRIEVAL_METHODS } from '../../main/engine/retrieve/registry.js';
import { formatExplanation } from '../../main/engine/retrieve/explain.js';
import { describeSettings } from '../../main/engine/settings.js';
import { LOCI_METHODS } from '../../main/bench/names.js';
import { registerAsk } from '../../main/cli/commands/ask.js';

const ROOT = join(__dirname, '..', '..');
const sorted = (xs: readonly string[]) => [...xs].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name.startsWith('.') || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe('the retrieval registry', () => {
  it('has exactly one entry per method of the contract enum, each described and runnable', () => {
    expect(sorted(METHOD_NAMES)).toEqual(sorted(retrievalMethod.options));
    for (const m of METHOD_NAMES) {
      const e = RETRIEVAL_METHODS[m];
      expect(e.label.length, m).toBeGreaterThan(0);
      expect(e.description.length, m).toBeGreaterThan(10);
      expect(typeof e.run, m).toBe('function');
    }
  });

  it('is what the bench, the settings and the CLI offer', () => {
    expect(sorted(LOCI_METHODS)).toEqual(sorted(METHOD_NAMES));
    const method = describeSettings().find((d) => d.key === 'method')!;
    expect(method.options).toEqual(METHOD_NAMES);
    expect(method.optionLabels).toEqual(Object.fromEntries(METHOD_NAMES.map((m) => [m, RETRIEVAL_METHODS[m].label])));
    for (const m of METHOD_NAMES) expect(method.description).toContain(RETRIEVAL_METHODS[m].description);
    const program = new Command();
    registerAsk(program);
    const choices = program.commands.find((c) => c.name() === 'ask')!.options.find((o) => o.long === '--method')!.argChoices;
    expect(sorted(choices ?? [])).toEqual(sorted(METHOD_NAMES));
  });

  it('says which methods read model-written key points: pgr alone', () => {
    expect(METHOD_NAMES.filter((m) => RETRIEVAL_METHODS[m].needs.keyPoints)).toEqual(['pgr']);
  });

  it('gives --explain the methods that can explain themselves', () => {
    const explained = METHOD_NAMES.filter((m) => RETRIEVAL_METHODS[m].explain);
    expect(sorted(explained)).toEqual(['hig', 'loci', 'pgr', 'ppr']);
    expect(formatExplanation(undefined)).toContain(`try --method ${explained.join(', ')}`);
  });

  it('is the only list of methods in the sources: no file spells three method names in a row', () => {
    const names = retrievalMethod.options.join('|');
    const list = new RegExp(`['"](${names})['"]\\s*,\\s*['"](${names})['"]\\s*,\\s*['"](${names})['"]`);
    const offenders = [...sourceFiles(join(ROOT, 'main')), ...sourceFiles(join(ROOT, 'renderer', 'src'))]
      .filter((f) => !f.endsWith(join('contract', 'shapes', 'domain.ts')))
      .filter((f) => list.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
