import type { Db } from '../store/db.js';
import { poolsSpans, type Embedder } from './embedder.js';
import { currentEmbeddedTexts, EMBEDDED_TEXT_MAX_CHARS, factPathParts, factsOfPassages, notesOfSeveralPassages, rowsMissingEmbeddings, vectorsOfTexts, writeEmbeddings, type OwnerKind } from '../store/embeddings.js';
import { forgetTakenVectors, hasReleasedVectors, releasedVectorsFor } from '../store/released-vectors.js';
import { embedOnce } from './embed-once.js';
import { planFactPaths } from './fact-path-vectors.js';
import { estimatedTokens } from './estimated-tokens.js';
import { composeNoteVectors } from './note-vectors.js';
import { embedPassagesWithFacts, type PassageFact } from './passage-facts.js';

/**
 * The vectors every retrieval method but PG-RAG's reads, and the extractive answer: passages, notes,
 * facts, entities. Passages first: with a model, a note of several passages is composed from theirs and
 * facts are pooled in their passage's pass. PG-RAG's fact paths ('mm') feed only pgr and the pseudo-graph,
 * so a switch of embedder can answer before they are done.
 */
export const KINDS_SEARCH_READS: readonly OwnerKind[] = ['chunk', 'doc', 'fci', 'entity'];
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

/** What a run gave vectors, per kind: the texts it ran the model over, and the rows whose vector it derived from others'. */
export type EmbedLedger = Partial<Record<OwnerKind, { embedded: string[]; derived: number }>>;

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
  /** Filled with what was embedded and what derived, per kind (`loci bench-index`). */
  ledger?: EmbedLedger;
}

/**
 * Embeds every row that has no vector for this embedder yet — or, given a scope, every such row of
 * those documents (and the entities they mention), without scanning the whole index. Incremental by
 * construction. Yields to the event loop between batches, so calls and progress go on. Returns how many
 * rows lacked a vector.
 *
 * With a model, rows whose text other rows already hold are given vectors derived from theirs instead of
 * a pass of their own: a fact from its passage's pass (passage-facts.ts), a note of several passages
 * from their vectors (note-vectors.ts), a fact path from its parent's and its fact's (fact-path-vectors.ts).
 */
export async function embedMissing(db: Db, embedder: Embedder, opts: EmbedMissingOptions = {}): Promise<number> {
  const { onProgress, signal, scope = null, kinds = KINDS, lock, times, ledger } = opts;
  const todo = kinds.map((kind) => {
    const docIds = scope ? (kind === 'entity' ? scope.entities : scope.rows) : null;
    return { kind, rows: docIds?.length === 0 ? [] : rowsMissingEmbeddings(db, kind, embedder.id, docIds) };
  });
  const rowsOf = (kind: OwnerKind) => todo.find((t) => t.kind === kind)?.rows ?? [];
  const total = todo.reduce((s, t) => s + t.rows.length, 0);
  const derives = composesFactPaths(embedder);
  // A path under a parent costs its fact nothing, or its own text (a few words), not the whole path.
  const mmRows = rowsOf('mm');
  const pathParts = derives && mmRows.length ? factPathParts(db, mmRows.map(([id]) => id)) : new Map<number, { parent: number | null; fci: number | null; text: string }>();
  const ownTextOf = (id: number) => {
    const p = pathParts.get(id);
    return p && p.parent !== null && p.fci === null ? embeddedText(p.text) : null;
  };
  // A text several rows share (a one-passage note and its passage; a line every report of a news site
  // ends with) is embedded once in the run; only those vectors are kept between batches, with the ones
  // an earlier run made for a note or its passage.
  const { repeated } = textCounts([...todo.flatMap((t) => t.rows.map(([, text]) => embeddedText(text))), ...mmRows.flatMap(([id]) => ownTextOf(id) ?? [])]);
  const shared = new Map<string, Float32Array>();
  for (const { kind, rows } of todo) {
    const other = SAME_TEXTS_AS[kind];
    if (!other || rows.length === 0) continue;
    const wanted = new Set(rows.map(([, text]) => embeddedText(text)));
    for (const [t, v] of vectorsOfTexts(db, other, embedder.id, wanted, scope?.rows ?? null)) shared.set(t, v);
  }
  // Facts pooled in their passage's pass, by passage; a fact not pooled there is embedded alone later.
  const pooling = derives && poolsSpans(embedder) && kinds.includes('fci') ? embedder : null;
  const factsByPassage = new Map<number, PassageFact[]>();
  const passageOfFact = new Map<number, { chunk: number; text: string }>();
  if (pooling) {
    const missingFacts = new Set(rowsOf('fci').map(([id]) => id));
    for (const [id, chunk, text] of factsOfPassages(db, embedder.id, rowsOf('chunk').map(([id]) => id))) {
      if (!missingFacts.has(id)) continue;
      let list = factsByPassage.get(chunk);
      if (!list) factsByPassage.set(chunk, (list = []));
      list.push({ id, text });
      passageOfFact.set(id, { chunk, text });
    }
  }
  const pooledFacts = new Set<number>();
  // Derived rows cost next to nothing, or their own text: left out of the work, so the ETA follows the
  // model. A fact is counted whole, and done when its passage's pass pools it: whether all of a passage's
  // facts can be pooled is known only then (on news most lie past the cut and are embedded alone).
  const costText = (kind: OwnerKind, id: number, text: string): string | null => {
    if (kind === 'mm') {
      const p = pathParts.get(id);
      if (p && p.parent !== null) return ownTextOf(id);
    }
    return kind === 'doc' && severalPassages.has(id) ? null : text;
  };
  const docRows = rowsOf('doc');
  const severalPassages = derives && docRows.length ? notesOfSeveralPassages(db, docRows.map(([id]) => id)) : new Set<number>();
  let totalCost = 0;
  const cut = embedder.maxTokens ?? 512;
  const costed = textCounts(todo.flatMap((t) => t.rows.flatMap(([id, text]) => costText(t.kind, id, embeddedText(text)) ?? []))).distinct;
  for (const t of costed) if (!shared.has(t)) totalCost += estimatedTokens(t, cut);
  let done = 0;
  let spent = 0;
  onProgress?.({ done, total, work: 0 });
  const released = hasReleasedVectors(db, embedder.id);
  for (const { kind, rows: all } of todo) {
    const left = kind === 'fci' && pooledFacts.size ? all.filter(([id]) => !pooledFacts.has(id)) : all;
    // By length, so each batch pads little (length-batches.ts sorts only within one batch). Fact paths
    // keep id order: a parent comes before its children, whose vectors are composed from it.
    const rows = kind === 'mm' ? left : [...left].sort((a, b) => embeddedText(a[1]).length - embeddedText(b[1]).length || a[0] - b[0]);
    if (rows.length < all.length) {
      done += all.length - rows.length;
      onProgress?.({ done, total, work: done === total ? 1 : Math.min(1, spent / Math.max(1, totalCost)) });
    }
    const entry = ledger ? (ledger[kind] ??= { embedded: [], derived: 0 }) : null;
    for (let i = 0; i < rows.length; i += BATCH) {
      signal?.throwIfAborted();
      const batch = rows.slice(i, i + BATCH);
      const texts = batch.map(([, text]) => embeddedText(text));
      for (const t of new Set(texts.flatMap((t, j) => costText(kind, batch[j]![0], t) ?? []))) if (!shared.has(t)) spent += estimatedTokens(t, cut);
      // A text a removed or rewritten row held (migration 11) is not embedded again; taken back, it leaves
      // the released ones (a repeated text stays shared with the run's later rows, as an embedded one does).
      const taken = released ? releasedVectorsFor(db, embedder.id, [...new Set(texts)].filter((t) => !shared.has(t))) : new Map<string, Float32Array>();
      const started = performance.now();
      const known = taken.size ? new Map([...shared, ...taken]) : shared;
      const plan = kind === 'mm' && derives ? planFactPaths(db, embedder.id, batch.map(([id]) => id)) : null;
      const notes = kind === 'doc' && derives ? composeNoteVectors(db, embedder, batch.filter(([, t]) => !known.has(embeddedText(t))).map(([id]) => id)) : null;
      // A row whose exact vector is at hand (shared, released) takes it rather than a derived one.
      const embedRow = texts.map((t, j) => known.has(t) || (plan ? plan.sources[j]!.embed === 'path' : !notes?.has(batch[j]![0])));
      const toEmbed = texts.filter((_, j) => embedRow[j]);
      // The own texts of paths composed from them (headings, list items), embedded with the batch.
      const ownTexts = plan ? [...new Set(plan.sources.flatMap((src, j) => (!embedRow[j] && src.embed === 'text' ? [src.text] : [])))] : [];
      let pooled = new Map<number, Float32Array>();
      let embeddedNow: Float32Array[];
      let ownText = new Map<string, Float32Array>();
      if (kind === 'chunk' && pooling) {
        const fresh = [...new Set(toEmbed.filter((t) => !known.has(t)))];
        const factsOfText = new Map<string, PassageFact[]>();
        batch.forEach(([id], j) => factsOfText.set(texts[j]!, [...(factsOfText.get(texts[j]!) ?? []), ...(factsByPassage.get(id) ?? [])]));
        const made = await embedPassagesWithFacts(pooling, fresh, (t) => factsOfText.get(t) ?? []);
        pooled = made.facts;
        embeddedNow = toEmbed.map((t) => made.vectors.get(t) ?? known.get(t)!);
        entry?.embedded.push(...fresh);
        // Passes over passages' rests past the cut ran the model for their facts.
        if (made.restsRun.length && ledger) (ledger.fci ??= { embedded: [], derived: 0 }).embedded.push(...made.restsRun);
      } else {
        const all = await embedOnce(embedder, [...toEmbed, ...ownTexts], known);
        embeddedNow = all.slice(0, toEmbed.length);
        ownText = new Map(ownTexts.map((t, i) => [t, all[toEmbed.length + i]!]));
        entry?.embedded.push(...new Set([...toEmbed, ...ownTexts].filter((t) => !known.has(t))));
      }
      let vectors = embeddedNow;
      if (plan || notes) {
        const made = new Map<number, Float32Array>();
        let e = 0;
        batch.forEach(([id], j) => {
          const vector = embedRow[j] ? embeddedNow[e++] : notes?.get(id);
          if (vector) made.set(id, vector);
        });
        plan?.compose(made, ownText);
        vectors = batch.map(([id]) => made.get(id)!);
      }
      if (entry) entry.derived += embedRow.filter((e) => !e).length;
      if (pooled.size && ledger) (ledger.fci ??= { embedded: [], derived: 0 }).derived += pooled.size;
      if (times) times[`embed: ${kind}`] = (times[`embed: ${kind}`] ?? 0) + (performance.now() - started) / 1000;
      texts.forEach((t, j) => {
        if (repeated.has(t) && embedRow[j]) shared.set(t, vectors[j]!);
      });
      for (const [t, v] of ownText) if (repeated.has(t)) shared.set(t, v);
      // Written even when stopped meanwhile: the vectors are this embedder's, and a later run keeps them.
      const write = async () => {
        const now = lock ? currentEmbeddedTexts(db, kind, batch.map(([id]) => id)) : null;
        const holds = (id: number, text: string) => !now || (now.has(id) && embeddedText(now.get(id)!) === text);
        const embedded = batch.flatMap(([id], j) => (holds(id, texts[j]!) ? [{ id, vector: vectors[j]! }] : []));
        // A fact is pooled from the passage as embedded: written only while both still hold those texts.
        const passageHeld = new Set(embedded.map((r) => r.id));
        const factTexts = pooled.size && lock ? currentEmbeddedTexts(db, 'fci', [...pooled.keys()]) : null;
        const facts = [...pooled].flatMap(([id, vector]) => {
          const from = passageOfFact.get(id)!;
          return passageHeld.has(from.chunk) && (!factTexts || factTexts.get(id) === from.text) ? [{ id, vector }] : [];
        });
        db.transaction(() => {
          writeEmbeddings(db, kind, embedder.id, embedded);
          if (facts.length) writeEmbeddings(db, 'fci', embedder.id, facts);
          forgetTakenVectors(db, embedder.id, [...taken.keys()]);
        })();
        // Rows counted as done where the facts' own turn comes, so the count stays within its total; their
        // work is done now.
        for (const f of facts) {
          pooledFacts.add(f.id);
          spent += estimatedTokens(embeddedText(passageOfFact.get(f.id)!.text), cut);
        }
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
