import type { Db } from './store/db.js';
import { getSetting, setSetting } from './store/settings.js';
import { DEFAULT_METHOD, availableMethods } from './retrieve/index.js';
import { DEFAULT_FUSION } from './graph/fusion.js';
import { DEFAULT_DOC_NEIGHBOURS } from './graph/doc-edges.js';
import { DEFAULT_MAX_BYTES } from './ingest/scan.js';

/**
 * Every setting a user can change, with the value in force while none is stored. Flat scalars, so
 * any UI can list and edit them; the engine reads them through `readSettings` only.
 */
export const DEFAULT_SETTINGS = {
  /** Retrieval method for questions. */
  method: DEFAULT_METHOD as string,
  /** 'glove' (built in) or 'transformers:<model folder>'; changing it re-embeds the index. */
  embedder: 'glove',
  /** Language model: a .gguf path, an installed model id or `http(s)://server/v1#model`; empty = fast mode. */
  model: '',
  /** llama.cpp threads; more than free cores is drastically slower. */
  threads: 1,
  /** Requests a local model generates at once. */
  sequences: 2,
  /** Neighbours per document in the document layer (KG-Retriever's K). */
  docNeighbours: DEFAULT_DOC_NEIGHBOURS,
  /** Similarity at which topics of different notes join a super-topic (PG-RAG). */
  fusionTopic: DEFAULT_FUSION.topic,
  /** Similarity at which fact paths of different notes join a super-fact (PG-RAG). */
  fusionFact: DEFAULT_FUSION.fact,
  /** Files larger than this many bytes are skipped. */
  maxBytes: DEFAULT_MAX_BYTES,
};

export type Settings = typeof DEFAULT_SETTINGS;

export function readSettings(db: Db): Settings {
  const out = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    const v = getSetting<unknown>(db, key, null);
    if (v !== null && typeof v === typeof DEFAULT_SETTINGS[key]) (out as Record<string, unknown>)[key] = v;
  }
  return out;
}

/** Validates and stores a partial update; throws naming the setting, and stores nothing, when one is wrong. */
export function writeSettings(db: Db, patch: Record<string, unknown>): void {
  const checked = Object.entries(patch).map(([key, raw]) => {
    if (!(key in DEFAULT_SETTINGS)) throw new Error(`Unknown setting '${key}'. Settings: ${Object.keys(DEFAULT_SETTINGS).join(', ')}.`);
    const expected = typeof DEFAULT_SETTINGS[key as keyof Settings];
    // null clears a setting back to its default (an empty model means fast mode).
    const value = raw === null ? DEFAULT_SETTINGS[key as keyof Settings] : raw;
    if (typeof value !== expected) throw new Error(`Setting '${key}' must be a ${expected}, got ${JSON.stringify(raw)}.`);
    if (typeof value === 'number' && !(Number.isFinite(value) && value > 0)) throw new Error(`Setting '${key}' must be a positive number.`);
    if (key === 'method' && !availableMethods().includes(value as never)) {
      throw new Error(`Setting 'method' must be one of ${availableMethods().join(', ')}.`);
    }
    if ((key === 'fusionTopic' || key === 'fusionFact') && (value as number) > 1) throw new Error(`Setting '${key}' is a cosine similarity: at most 1.`);
    return [key, value] as const;
  });
  db.transaction(() => {
    for (const [key, value] of checked) setSetting(db, key, value);
  })();
}
