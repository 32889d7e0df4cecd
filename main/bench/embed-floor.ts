import type { Embedder } from '../engine/embed/embedder.js';
import type { OwnerKind } from '../engine/store/embeddings.js';
import type { EmbedLedger } from '../engine/embed/embed-missing.js';

/** What `loci bench-index --embedder` measures Loci's index against: each distinct passage text embedded once, raw. */
export interface EmbedFloor {
  /** Distinct passage texts (a chunk's title and text, as Loci embeds it), each embedded once. */
  texts: number;
  tokens: number;
  seconds: number;
}

/** Where a run's embedding went, per kind of row, in the order the index embeds them. */
export interface KindCost {
  kind: OwnerKind;
  /** Rows of the kind. */
  rows: number;
  /** Distinct texts among them. */
  distinct: number;
  /** Texts the run ran the model over for this kind (none an earlier kind or run had). */
  embedded: number;
  /**
   * Rows whose vector was derived from other rows' instead, with a model embedder: fact paths composed
   * from their parent's and fact's, notes from their passages', facts pooled in their passage's pass.
   */
  composed: number;
  /** Tokens of the embedded texts (the model's tokenizer when it has one, else estimated). */
  tokens: number;
  /** Seconds the index spent embedding the kind's texts. */
  seconds: number;
}

/**
 * Texts the model is warmed on before either run is timed. A model's runtime grows its buffers over its
 * first few hundred texts (the same 110 passages embedded four times in a row: 2.97, 2.70, 2.47, 2.42 s);
 * the floor, timed after the index on the same instance, would otherwise get that for free.
 */
const WARM_UP_TEXTS = 100;
/** Pieces of a passage's length. */
const WARM_UP_PIECE = /[\s\S]{1,1000}/g;

/** Embeds pieces of the notes' text, spread over the folder, untimed by the ratio; returns its seconds. */
export async function warmEmbedder(embedder: Embedder, notes: readonly string[]): Promise<number> {
  const pieces = notes.flatMap((n) => n.match(WARM_UP_PIECE) ?? []);
  const step = Math.max(1, pieces.length / WARM_UP_TEXTS);
  const texts = Array.from({ length: Math.min(WARM_UP_TEXTS, pieces.length) }, (_, i) => pieces[Math.floor(i * step)]!);
  const t = performance.now();
  await embedder.embed(texts);
  return (performance.now() - t) / 1000;
}

/** Names of the kinds for people. */
export const KIND_NAMES: Record<OwnerKind, string> = {
  doc: 'notes (title + prose)',
  chunk: 'passages',
  fci: 'facts',
  entity: 'entity names',
  mm: 'fact paths',
};

/**
 * Reads the index just built (a connection of its own) and embeds each distinct passage text once with
 * `embedder`: the floor, and the per-kind cost of what the index embedded (`ledger`: what its embedding
 * step ran the model over and derived; `times`: its `embed: <kind>` seconds).
 */
export async function measureEmbedFloor(
  dbFile: string,
  embedder: Embedder,
  times: Record<string, number>,
  ledger: EmbedLedger,
): Promise<{ floor: EmbedFloor; kinds: KindCost[] }> {
  const { openDb } = await import('../engine/store/db.js');
  const { embeddedTexts } = await import('../engine/store/embeddings.js');
  const { embeddedText, KINDS } = await import('../engine/embed/embed-missing.js');
  const { estimatedTokens } = await import('../engine/embed/estimated-tokens.js');
  const db = openDb(dbFile, { readonly: true });
  const textsOf = new Map<OwnerKind, string[]>();
  try {
    for (const kind of KINDS) textsOf.set(kind, embeddedTexts(db, kind).map(([, t]) => embeddedText(t)));
  } finally {
    db.close();
  }
  const tokens = (texts: string[]) => {
    const counts = embedder.countTokens?.(texts) ?? texts.map((t) => estimatedTokens(t, embedder.maxTokens ?? 512));
    return Math.round(counts.reduce((s, n) => s + n, 0));
  };

  const kinds: KindCost[] = KINDS.map((kind) => {
    const all = textsOf.get(kind)!;
    const { embedded = [], derived = 0 } = ledger[kind] ?? {};
    return { kind, rows: all.length, distinct: new Set(all).size, embedded: embedded.length, composed: derived, tokens: tokens(embedded), seconds: times[`embed: ${kind}`] ?? 0 };
  });

  const passages = [...new Set(textsOf.get('chunk'))];
  const t = performance.now();
  const vectors = await embedder.embed(passages);
  const seconds = (performance.now() - t) / 1000;
  if (vectors.length !== passages.length) throw new Error(`embedder ${embedder.id} returned ${vectors.length} vectors for ${passages.length} texts`);
  return { floor: { texts: passages.length, tokens: tokens(passages), seconds }, kinds };
}
