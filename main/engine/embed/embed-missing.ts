import type { Db } from '../store/db.js';
import type { Embedder } from './embedder.js';
import { currentEmbeddedTexts, EMBEDDED_TEXT_MAX_CHARS, factPathParts, rowsMissingEmbeddings, vectorsOfTexts, writeEmbeddings, type OwnerKind } from '../store/embeddings.js';
import { forgetTakenVectors, hasReleasedVectors, releasedVectorsFor } from '../store/released-vectors.js';
import { embedOnce } from './embed-once.js';
import { planFactPaths } from './fact-path-vectors.js';

/**
 * The vectors every retrieval method but PG-RAG's reads, and the extractive answer: notes, passages,
 * facts, entities. PG-RAG's fact paths ('mm', the largest share: 15.1M of the 10k news' 24.3M MiniLM
 * tokens) feed only pgr and the pseudo-graph, so a switch of embedder can answer before they are done.
 */
export const KINDS_SEARCH_READS: readonly OwnerKind[] = ['doc', 'chunk', 'fci', 'entity'];
/** Fact paths last: every method but PG-RAG's can use the rest while they are embedded. */
export const KINDS: readonly OwnerKind[] = [...KINDS_SEARCH_READS, 'mm'];
const BATCH = 256;
/**
 * A one-passage note embeds the same text as its passage. A run stopped after the notes' vectors (or
 * before them, a switch's first pass) would otherwise embed all those texts again: with e5 over the 10k
 * news, 4.5M tokens, half an hour of two cores.
 */
const SAME_TEXTS_AS: Partial<Record<OwnerKind, OwnerKind>> = { doc: 'chunk', chunk: 'doc' };

export interface EmbedProgress {
  /** Rows given a vector, of `total`. */
  done: number;
  total: number;
  /**
   * The share of the embedding work done (0–1), by each text's estimated token count: a fact path costs
   * a real embedder about twice a fact, so rows alone would make the ETA swing from kind to kind.
   */
  work: number;
}

export interface EmbedMissingOptions {
  onProgress?: (p: EmbedProgress) => void;
  signal?: AbortSignal;
  /** Only rows of these documents (`rows`) and entities these documents mention (`entities`). */
  scope?: { rows: number[]; entities: number[] } | null;
  kinds?: readonly OwnerKind[];
  /**
   * Runs each batch's write when no other write is under way (the engine's queue). Given one, texts are
   * embedded outside it, so index runs go on between batches, and each vector is written only where its
   * row still holds the text embedded: a note rewritten or removed meanwhile is its index run's to embed.
   */
  lock?: (write: () => Promise<void>) => Promise<void>;
  /** Adds the seconds spent embedding each kind's texts, as `embed: <kind>` (`loci bench-index`). */
  times?: Record<string, number>;
}

/**
 * Embeds every row that has no vector for this embedder yet — or, given a scope, every such row of
 * those documents (and the entities they mention), without scanning the whole index. Incremental by
 * construction. Yields to the event loop between batches, so calls and progress go on. Returns how many
 * rows lacked a vector.
 */
export async function embedMissing(db: Db, embedder: Embedder, opts: EmbedMissingOptions = {}): Promise<number> {
  const { onProgress, signal, scope = null, kinds = KINDS, lock, times } = opts;
  const todo = kinds.map((kind) => {
    const docIds = scope ? (kind === 'entity' ? scope.entities : scope.rows) : null;
    return { kind, rows: docIds?.length === 0 ? [] : rowsMissingEmbeddings(db, kind, embedder.id, docIds) };
  });
  const total = todo.reduce((s, t) => s + t.rows.length, 0);
  // A text several rows share (a one-passage note and its passage; a line every report of a news site
  // ends with) is embedded once in the run; only those vectors are kept between batches, with the ones
  // an earlier run made for a note or its passage.
  const { distinct, repeated } = textCounts(todo.flatMap((t) => t.rows.map(([, text]) => embeddedText(text))));
  const shared = new Map<string, Float32Array>();
  for (const { kind, rows } of todo) {
    const other = SAME_TEXTS_AS[kind];
    if (!other || rows.length === 0) continue;
    const wanted = new Set(rows.map(([, text]) => embeddedText(text)));
    for (const [t, v] of vectorsOfTexts(db, other, embedder.id, wanted, scope?.rows ?? null)) shared.set(t, v);
  }
  // Fact paths that will be composed cost next to nothing: left out of the work, so the ETA follows the model.
  const mmRows = todo.find((t) => t.kind === 'mm')?.rows ?? [];
  const composed = composesFactPaths(embedder) && mmRows.length ? new Set(factPathParts(db, mmRows.map(([id]) => id)).keys()) : new Set<number>();
  const costed = composed.size ? textCounts(todo.flatMap((t) => t.rows.filter(([id]) => t.kind !== 'mm' || !composed.has(id)).map(([, text]) => embeddedText(text)))).distinct : distinct;
  let totalCost = 0;
  const cut = embedder.maxTokens ?? 512;
  for (const t of costed) if (!shared.has(t)) totalCost += estimatedTokens(t, cut);
  let done = 0;
  let spent = 0;
  onProgress?.({ done, total, work: 0 });
  const released = hasReleasedVectors(db, embedder.id);
  for (const { kind, rows } of todo) {
    for (let i = 0; i < rows.length; i += BATCH) {
      signal?.throwIfAborted();
      const batch = rows.slice(i, i + BATCH);
      const texts = batch.map(([, text]) => embeddedText(text));
      for (const t of new Set(texts.filter((_, j) => kind !== 'mm' || !composed.has(batch[j]![0])))) if (!shared.has(t)) spent += estimatedTokens(t, cut);
      // A text a removed or rewritten row held (migration 11) is not embedded again; taken back, it leaves
      // the released ones (a repeated text stays shared with the run's later rows, as an embedded one does).
      const taken = released ? releasedVectorsFor(db, embedder.id, [...new Set(texts)].filter((t) => !shared.has(t))) : new Map<string, Float32Array>();
      const started = performance.now();
      const plan = kind === 'mm' && composesFactPaths(embedder) ? planFactPaths(db, embedder.id, batch.map(([id]) => id)) : null;
      const known = taken.size ? new Map([...shared, ...taken]) : shared;
      // A path whose exact vector is at hand (shared, released) takes it rather than a composed one.
      const embedRow = texts.map((t, j) => !plan || plan.embed[j]! || known.has(t));
      const embeddedNow = await embedOnce(embedder, plan ? texts.filter((_, j) => embedRow[j]) : texts, known);
      let vectors = embeddedNow;
      if (plan) {
        const made = new Map<number, Float32Array>();
        let e = 0;
        batch.forEach(([id], j) => embedRow[j] && made.set(id, embeddedNow[e++]!));
        plan.compose(made);
        vectors = batch.map(([id]) => made.get(id)!);
      }
      if (times) times[`embed: ${kind}`] = (times[`embed: ${kind}`] ?? 0) + (performance.now() - started) / 1000;
      texts.forEach((t, j) => {
        if (repeated.has(t) && embedRow[j]) shared.set(t, vectors[j]!);
      });
      // Written even when stopped meanwhile: the vectors are this embedder's, and a later run keeps them.
      const write = async () => {
        const now = lock ? currentEmbeddedTexts(db, kind, batch.map(([id]) => id)) : null;
        const holds = (id: number, text: string) => !now || (now.has(id) && embeddedText(now.get(id)!) === text);
        const embedded = batch.flatMap(([id], j) => (holds(id, texts[j]!) ? [{ id, vector: vectors[j]! }] : []));
        db.transaction(() => {
          writeEmbeddings(db, kind, embedder.id, embedded);
          forgetTakenVectors(db, embedder.id, [...taken.keys()]);
        })();
      };
      await (lock ? lock(write) : write());
      done += batch.length;
      onProgress?.({ done, total, work: done === total ? 1 : Math.min(1, spent / Math.max(1, totalCost)) });
      // The built-in embedder computes on this thread without awaiting anything: a turn of the event loop
      // per batch keeps the engine answering while thousands of entities are embedded.
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  return total;
}

/** The text a row is embedded by: its text cut where long documents are cut. */
export function embeddedText(text: string | null): string {
  return (text ?? '').slice(0, EMBEDDED_TEXT_MAX_CHARS);
}

/**
 * The built-in embedder's fact paths are exact sums of their parts' words, as cheap as composing
 * (index-worker/compose-vectors.ts): only a model's are composed.
 */
export function composesFactPaths(embedder: Embedder): boolean {
  return !('sums' in embedder);
}

function textCounts(texts: string[]): { distinct: Set<string>; repeated: Set<string> } {
  const distinct = new Set<string>();
  const repeated = new Set<string>();
  for (const t of texts) (distinct.has(t) ? repeated : distinct).add(t);
  return { distinct, repeated };
}

/**
 * About how many tokens a real embedder reads of a text: a Han character is about one, other text about
 * one per four characters (within 0.75–1.12 of MiniLM's count for each kind of row, on Wikipedia, news
 * and documentation); at most where the model cuts.
 */
export function estimatedTokens(text: string, cut: number): number {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  return Math.min(cut, 1 + han + (text.length - han) / 4);
}
