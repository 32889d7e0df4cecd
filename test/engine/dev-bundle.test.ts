import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { devWorkerBundle } from '../../main/engine/index-worker/dev-bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'loci-dev-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the indexing worker bundle built from the sources', () => {
  it('bundles the task, keeps it while its sources are unchanged, and rebuilds when one changes', async () => {
    const task = join(dir, 'task.ts');
    const helper = join(dir, 'helper.ts');
    writeFileSync(helper, 'export const word: string = "first";\n');
    writeFileSync(task, 'import { word } from "./helper.js";\nexport default function task(): string {\n  return word;\n}\n');

    const bundle = devWorkerBundle(task);
    expect(bundle).not.toBeNull();
    const built = statSync(bundle!).mtimeMs;
    const first = (await import(`${pathToFileURL(bundle!).href}?1`)) as { default: () => string };
    expect(first.default()).toBe('first');

    expect(devWorkerBundle(task)).toBe(bundle);
    expect(statSync(bundle!).mtimeMs).toBe(built);

    // A changed import (another size, so the stamp differs even within the file system's mtime grain).
    writeFileSync(helper, 'export const word: string = "second one";\n');
    expect(devWorkerBundle(task)).toBe(bundle);
    expect(readFileSync(bundle!, 'utf8')).toContain('second one');
  });

  it('gives null when the task cannot be built, so the caller starts workers through tsx', () => {
    const broken = join(dir, 'broken.ts');
    writeFileSync(broken, 'import { missing } from "./nowhere.js";\nexport default missing;\n');
    expect(devWorkerBundle(broken)).toBeNull();
  });
});
