import { readFileSync, existsSync } from 'node:fs';
import { resourcePath } from '../paths.js';

/**
 * Reader for the GloVe binary written by scripts/build-glove.mjs (format documented there; the two are
 * kept in step by test/embed/glove-binary.test.ts).
 */
export const GLOVE_MAGIC = 'LOCIGLV\0';
export const GLOVE_FORMAT_VERSION = 1;
const HEADER_BYTES = 32;

export const DEFAULT_GLOVE_FILE = resourcePath('embeddings', 'glove-100d.bin');

export interface GloveTable {
  dim: number;
  /** Words in the table (the most frequent useful words of the source). */
  count: number;
  /** Words in the source vocabulary: the N of the Zipf estimate. */
  sourceSize: number;
  words: string[];
  /** Frequency rank of each word in the source, 0 = most frequent. */
  ranks: Uint32Array;
  /** Per-word scale: component j of word r is vectors[r * dim + j] * scales[r]. */
  scales: Float32Array;
  vectors: Int8Array;
}

export class GloveMissingError extends Error {
  constructor(file: string) {
    super(`GloVe binary not found at ${file}: run \`npm install\` or \`node scripts/build-glove.mjs\` to build it`);
    this.name = 'GloveMissingError';
  }
}

export function readGloveBinary(file: string = DEFAULT_GLOVE_FILE): GloveTable {
  if (!existsSync(file)) throw new GloveMissingError(file);
  let buf = readFileSync(file);
  // Typed-array views need 4-byte alignment of the underlying buffer.
  if (buf.byteOffset % 4 !== 0) buf = Buffer.from(Uint8Array.prototype.slice.call(buf));
  const bad = (why: string) =>
    new Error(`${file} is not a usable GloVe binary (${why}): rebuild it with \`node scripts/build-glove.mjs --force\``);
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 8) !== GLOVE_MAGIC) throw bad('bad magic');
  const version = buf.readUInt32LE(8);
  if (version !== GLOVE_FORMAT_VERSION) throw bad(`format v${version}, expected v${GLOVE_FORMAT_VERSION}`);
  const dim = buf.readUInt32LE(12);
  const count = buf.readUInt32LE(16);
  const sourceSize = buf.readUInt32LE(20);
  const vocabBytes = buf.readUInt32LE(24);
  const scalesAt = HEADER_BYTES;
  const ranksAt = scalesAt + 4 * count;
  const vectorsAt = ranksAt + 4 * count;
  const vocabAt = vectorsAt + count * dim;
  if (buf.length !== vocabAt + vocabBytes) throw bad('truncated');
  const ab = buf.buffer;
  const base = buf.byteOffset;
  const words = count === 0 ? [] : buf.toString('utf8', vocabAt, vocabAt + vocabBytes).split('\n');
  if (words.length !== count) throw bad(`vocabulary has ${words.length} words, header says ${count}`);
  return {
    dim,
    count,
    sourceSize,
    words,
    scales: new Float32Array(ab, base + scalesAt, count),
    ranks: new Uint32Array(ab, base + ranksAt, count),
    vectors: new Int8Array(ab, base + vectorsAt, count * dim),
  };
}
