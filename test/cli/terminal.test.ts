import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termField, termText } from '../../main/cli/terminal.js';

// Probe 9: a note named with ANSI escapes cleared the screen and forged a citation line in `loci ask`.
const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const ESC = '\u001b';
// Clears the screen, homes the cursor, and on a fresh line prints what looks like a citation.
const EVIL_NAME = `evil${ESC}[2J${ESC}[H\r[9] trusted-source.md:1-3\nmore\u202e.md`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loci-term-'));
  await mkdir(join(dir, 'notes'));
  await writeFile(join(dir, 'notes', EVIL_NAME), '# Lighthouse keeping\n\nThe lighthouse keeper trims the lamp wick every evening at dusk.\n');
  await writeFile(join(dir, 'notes', 'plain.md'), '# Gardening\n\nTomatoes need full sun and regular watering.\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function loci(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(repo, 'bin/loci.mjs'), ...args], { cwd: repo, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

describe('terminal escaping', () => {
  it('shows control characters escaped: fields lose their newlines, blocks keep theirs', () => {
    expect(termField(`a${ESC}[2Jb\nc\rd\te\u202ef\u0085`)).toBe('a\\x1B[2Jb\\x0Ac\\x0Dd\\x09e\\u202Ef\\x85');
    expect(termText(`line 1\n\tline 2${ESC}[H\r`)).toBe('line 1\n\tline 2\\x1B[H\\x0D');
    expect(termField('Ünïcödé 中文 — fine')).toBe('Ünïcödé 中文 — fine');
  });

  it('`loci index` and `loci ask` print a hostile file name inert, on its own citation line', async () => {
    const db = join(dir, 'index.db');
    const indexed = await loci('index', join(dir, 'notes'), '--db', db);
    expect(indexed).not.toContain(ESC);
    const out = await loci('ask', 'When does the lighthouse keeper trim the lamp wick?', '--db', db, '--method', 'bm25');
    for (const ch of [ESC, '\r', '\u202e']) expect(out).not.toContain(ch);
    const lines = out.split('\n');
    // The name shows up escaped inside a genuine citation line, and no line was forged from it.
    expect(lines.some((l) => /^\[\d+\] evil\\x1B\[2J\\x1B\[H\\x0D\[9\] trusted-source\.md:1-3\\x0Amore\\u202E\.md:\d+-\d+/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith('[9] trusted-source.md'))).toBe(false);
    // JSON keeps the real name (escaped by JSON itself).
    const json = JSON.parse(await loci('ask', 'lighthouse lamp wick', '--db', db, '--method', 'bm25', '--json'));
    expect(json.citations.some((c: { docPath: string }) => c.docPath === EVIL_NAME)).toBe(true);
  }, 60_000);
});
