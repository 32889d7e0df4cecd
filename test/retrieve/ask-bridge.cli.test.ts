import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The README's example through the real CLI (index, then ask, no model): the answer follows the bridge
// from the roaster the question names to its founder's note and cites the line of her birthplace first.
const REPO = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loci-bridge-'));
const db = join(dir, 'x.db');
const loci = (...args: string[]) => execFileSync('node', ['bin/loci.mjs', ...args], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loci ask follows the bridge', () => {
  it('cites the Tromsø line of Mara Lindqvist’s note first for the founder of Kestrel Coffee Works', () => {
    loci('index', 'resources/sample-notes', '--db', db);
    const out = loci('ask', 'Where was the founder of Kestrel Coffee Works born?', '--db', db);
    const citations = out.split('\n').filter((l) => /^\[\d+\] /.test(l));
    expect(citations.length).toBeGreaterThan(1);
    expect(citations[0]).toMatch(/^\[1\] people\/Mara Lindqvist\.md:9-9 .*born in Tromsø/);
    // The bridging fact (the founder line) is cited too, so the answer shows how it got there.
    expect(citations.some((c) => /Mara Lindqvist\.md:6-6 .*founder .* Kestrel Coffee Works/.test(c))).toBe(true);
    expect(out).toMatch(/\(extractive, method loci, \d+ ms\)/);
  }, 120_000);
});
