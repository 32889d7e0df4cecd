import type { CharSpan } from './token-spans.js';

/** Turns texts into L2-normalised vectors. `id` keys stored vectors, so a model change re-embeds. */
export interface Embedder {
  readonly id: string;
  readonly dim: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Vectors for search queries, where the model embeds them differently from passages (E5's `query:`);
   * callers embedding a question use this when present, `embed` otherwise.
   */
  embedQueries?(texts: string[]): Promise<Float32Array[]>;
  /** Where the model cuts a text, in its tokens, when known: what a long text costs it (progress estimates). */
  readonly maxTokens?: number;
  /** How many tokens the model reads of each text (cut where it cuts), when it has a tokenizer: what `loci bench-index` reports. */
  countTokens?(texts: string[]): number[];
  /**
   * Each text's vector, and a vector for each of its character spans pooled from the same pass's token
   * states (late chunking): what a passage's sentences mean in it, for the cost of the passage alone. A
   * span the model does not read whole (cut, or a boundary inside a token) gets null. Only embedders that
   * pool token states offer it.
   */
  embedWithSpans?(items: readonly SpanRequest[]): Promise<SpanVectors[]>;
  /**
   * Which spans of each text `embedWithSpans` would pool, found by tokenizing alone: a caller can leave
   * out a pass whose pooled spans it would throw away. Without it, a caller learns that only by the pass.
   */
  poolableSpans?(items: readonly SpanRequest[]): boolean[][];
  dispose?(): Promise<void>;
}

/** An embedder that pools spans (embedWithSpans). */
export type SpanEmbedder = Embedder & Required<Pick<Embedder, 'embedWithSpans'>>;

export function poolsSpans(embedder: Embedder): embedder is SpanEmbedder {
  return typeof embedder.embedWithSpans === 'function';
}

export interface SpanRequest {
  text: string;
  spans: readonly CharSpan[];
}

export interface SpanVectors {
  vector: Float32Array;
  spans: (Float32Array | null)[];
}

export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
