import type { Embedder } from '../engine/embed/embedder.js';
import type { OwnerKind } from '../engine/store/embeddings.js';

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
  /** Of those, texts no earlier kind had and not composed: what the run embedded for this kind. */
  embedded: number;
  /** Rows whose vector was composed from other rows' vectors instead (fact paths of facts, with a model embedder). */
  composed: number;
  /** Tokens of the embedded texts (the model's tokenizer when it has one, else estimated). */
  tokens: number;
  /** Seconds the index spent embedding the kind's texts. */
  seconds: number;
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
 * `embedder`: the floor, and the per-kind cost of what the index embedded (`times`: its `embed: <kind>`).
 */
export async function measureEmbedFloor(
  dbFile: string,
  embedder: Embedder,
  times: Record<string, number>,
): Promise<{ floor: EmbedFloor; kinds: KindCost[] }> {
  const { openDb } = await import('../engine/store/db.js');
  const { embeddedTexts, factPathParts } = await import('../engine/store/embeddings.js');
  const { composesFactPaths, embeddedText, estimatedTokens, KINDS } = await import('../engine/embed/embed-missing.js');
  const db = openDb(dbFile, { readonly: true });
  const textsOf = new Map<OwnerKind, string[]>();
  const composedTexts = new Set<string>();
  let composed = 0;
  try {
    for (const kind of KINDS) {
      const rows = embeddedTexts(db, kind);
      const parts = kind === 'mm' && composesFactPaths(embedder) ? factPathParts(db, rows.map(([id]) => id)) : new Map();
      composed += parts.size;
      textsOf.set(kind, rows.filter(([id]) => !parts.has(id)).map(([, t]) => embeddedText(t)));
      for (const [id, t] of rows) if (parts.has(id)) composedTexts.add(embeddedText(t));
    }
  } finally {
    db.close();
  }
  const tokens = (texts: string[]) => {
    const counts = embedder.countTokens?.(texts) ?? texts.map((t) => estimatedTokens(t, embedder.maxTokens ?? 512));
    return Math.round(counts.reduce((s, n) => s + n, 0));
  };

  const seen = new Set<string>();
  const kinds: KindCost[] = KINDS.map((kind) => {
    const all = textsOf.get(kind)!;
    const composedHere = kind === 'mm' ? composed : 0;
    const distinct = new Set([...all, ...(kind === 'mm' ? composedTexts : [])]);
    const fresh = [...new Set(all)].filter((t) => !seen.has(t));
    for (const t of fresh) seen.add(t);
    return { kind, rows: all.length + composedHere, distinct: distinct.size, embedded: fresh.length, composed: composedHere, tokens: tokens(fresh), seconds: times[`embed: ${kind}`] ?? 0 };
  });

  const passages = [...new Set(textsOf.get('chunk'))];
  const t = performance.now();
  const vectors = await embedder.embed(passages);
  const seconds = (performance.now() - t) / 1000;
  if (vectors.length !== passages.length) throw new Error(`embedder ${embedder.id} returned ${vectors.length} vectors for ${passages.length} texts`);
  return { floor: { texts: passages.length, tokens: tokens(passages), seconds }, kinds };
}
