// Models live beside the index: under LOCI_HOME when it is set, unless a models or data folder is named.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modelsDir } from '../../main/engine/llm/models/models-dir.js';
import { defaultDbPath } from '../../main/engine/paths.js';

const KEYS = ['LOCI_HOME', 'LOCI_DATA_DIR', 'LOCI_MODELS_DIR'] as const;
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of KEYS) if (saved[k] === undefined) delete process.env[k];
  else process.env[k] = saved[k];
});

describe('modelsDir', () => {
  it('is LOCI_HOME/models when LOCI_HOME is set, beside the index', () => {
    for (const k of KEYS) delete process.env[k];
    process.env.LOCI_HOME = '/tmp/loci-home-x';
    expect(modelsDir()).toBe(join('/tmp/loci-home-x', 'models'));
    expect(defaultDbPath()).toBe(join('/tmp/loci-home-x', 'index.db'));
  });
  it('follows LOCI_MODELS_DIR, then LOCI_DATA_DIR, before LOCI_HOME', () => {
    process.env.LOCI_HOME = '/tmp/loci-home-x';
    process.env.LOCI_DATA_DIR = '/tmp/loci-data-y';
    expect(modelsDir()).toBe(join('/tmp/loci-data-y', 'models'));
    process.env.LOCI_MODELS_DIR = '/tmp/loci-models-z';
    expect(modelsDir()).toBe('/tmp/loci-models-z');
  });
});
