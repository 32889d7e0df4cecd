import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { devBundle } from '../../main/engine/dev-bundle.mjs';

const dir = mkdtempSync(join(tmpdir(), 'loci-dev-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a bundle built from the sources (the CLI, the indexing worker)', () => {
  it('bundles the task, keeps it while its sources are unchanged, and rebuilds when one changes', async () => {
    const task = join(dir, 'task.ts');
    const helper = join(dir, 'helper.ts');
    writeFileSync(helper, 'export const word: string = "first";\n');
    writeFileSync(task, 'import { word } from "./helper.js";\nexport default function task(): string {\n  return word;\n}\n');

    const bundle = await devBundle(task);
    expect(bundle).not.toBeNull();
    const built = statSync(bundle!).mtimeMs;
    const first = (await import(`${pathToFileURL(bundle!).href}?1`)) as { default: () => string };
    expect(first.default()).toBe('first');

    expect(await devBundle(task)).toBe(bundle);
    expect(statSync(bundle!).mtimeMs).toBe(built);

    // A changed import (another size, so the stamp differs even within the file system's mtime grain).
    writeFileSync(helper, 'export const word: string = "second one";\n');
    expect(await devBundle(task)).toBe(bundle);
    expect(readFileSync(bundle!, 'utf8')).toContain('second one');
  });

  it('leaves each module its own source file as import.meta, so files beside a module are found as from the sources', async () => {
    const sub = join(dir, 'deeper');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'place.ts'), 'export const place = { url: import.meta.url, dir: import.meta.dirname, file: import.meta.filename };\n');
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, 'import { place } from "./deeper/place.js";\nexport default { mine: import.meta.url, place };\n');
    const bundle = await devBundle(entry);
    expect(bundle).not.toBeNull();
    expect(dirname(bundle!)).not.toBe(dir);
    const { default: got } = (await import(pathToFileURL(bundle!).href)) as { default: { mine: string; place: { url: string; dir: string; file: string } } };
    expect(got.mine).toBe(pathToFileURL(entry).href);
    expect(got.place).toEqual({ url: pathToFileURL(join(sub, 'place.ts')).href, dir: sub, file: join(sub, 'place.ts') });
  });

  it('gives null when the task cannot be built, so the caller runs the sources through tsx', async () => {
    const broken = join(dir, 'broken.ts');
    writeFileSync(broken, 'import { missing } from "./nowhere.js";\nexport default missing;\n');
    expect(await devBundle(broken)).toBeNull();
  });
});
