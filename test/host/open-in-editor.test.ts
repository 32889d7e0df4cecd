// "Open in my editor" through the contract over a real engine and a real index: the editor command the
// user configured (LOCI_OPEN_COMMAND) really runs — a recorder script stands in for the editor and writes
// down what it was asked to open — and a note whose link leads out of its folder is never handed over.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatcher, type Dispatcher, type Emit } from '../../main/contract/dispatcher.js';
import type { EventName } from '../../main/contract/contract.js';
import { composeHost, type Host } from '../../main/host/compose.js';
import { editorCommand } from '../../main/host/open-in-editor.js';
import { LociEngine } from '../../main/engine/engine.js';

let dir: string;
let engine: LociEngine;
let host: Host;
let d: Dispatcher;
const savedCommand = process.env.LOCI_OPEN_COMMAND;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-open-editor-'));
  await mkdir(join(dir, 'notes'));
  await writeFile(join(dir, 'notes', 'bees.md'), '# Bees\n\nA colony swarms in late spring.\n\nThe old queen leaves with half the workers.\n');
  engine = await LociEngine.open({ dbPath: join(dir, 'index.db') });
  const emit = ((_event: EventName, _payload: unknown) => undefined) as Emit;
  host = composeHost({ engine, emit, host: { host: 'browser', canPickFolder: false, version: 'test' }, modelsDir: () => join(dir, 'models') });
  d = createDispatcher(host.handlers);
});

afterEach(async () => {
  if (savedCommand === undefined) delete process.env.LOCI_OPEN_COMMAND;
  else process.env.LOCI_OPEN_COMMAND = savedCommand;
  host.stop();
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('host.openInEditor', () => {
  it('fills {file} and {line} into the configured command, or appends the file', () => {
    expect(editorCommand('/n/a b.md', 7, 'code -g {file}:{line}')).toEqual(['code', '-g', '/n/a b.md:7']);
    expect(editorCommand('/n/x.md', undefined, 'gedit')).toEqual(['gedit', '/n/x.md']);
    expect(editorCommand('/n/x.md', 3, '')).toContain('/n/x.md');
  });

  it("runs the user's editor on the note's real file at the cited line", async () => {
    await d.dispatch('library.index', { root: join(dir, 'notes') });
    const recorder = join(dir, 'recorder.mjs');
    const seen = join(dir, 'seen.json');
    await writeFile(recorder, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(seen)}, JSON.stringify(process.argv.slice(2)));\n`);
    process.env.LOCI_OPEN_COMMAND = `${process.execPath} ${recorder} {file} {line}`;
    const r = await d.dispatch('host.openInEditor', { docPath: 'bees.md', line: 3 });
    const file = await realpath(join(dir, 'notes', 'bees.md'));
    expect(r).toEqual({ ok: true, result: { file } });
    for (let i = 0; i < 100 && !existsSync(seen); i++) await new Promise((res) => setTimeout(res, 50));
    expect(JSON.parse(await readFile(seen, 'utf8'))).toEqual([file, '3']);
  });

  it('refuses a note that is not indexed, and a program that does not exist, with clear errors', async () => {
    await d.dispatch('library.index', { root: join(dir, 'notes') });
    const missing = await d.dispatch('host.openInEditor', { docPath: 'nope.md' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    process.env.LOCI_OPEN_COMMAND = join(dir, 'no-such-editor');
    const r = await d.dispatch('host.openInEditor', { docPath: 'bees.md' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(JSON.stringify(r)).toMatch(/LOCI_OPEN_COMMAND/);
  });

  it('never hands over a file reached through a link that leads out of the folder', async () => {
    await d.dispatch('library.index', { root: join(dir, 'notes') });
    // The note is indexed, then replaced by a link to a file outside the folder.
    await writeFile(join(dir, 'secret.md'), 'outside\n');
    await rm(join(dir, 'notes', 'bees.md'));
    await symlink(join(dir, 'secret.md'), join(dir, 'notes', 'bees.md'));
    process.env.LOCI_OPEN_COMMAND = `${process.execPath} -e 0`;
    const r = await d.dispatch('host.openInEditor', { docPath: 'bees.md' });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).toMatch(/outside its library folder/);
  });
});
