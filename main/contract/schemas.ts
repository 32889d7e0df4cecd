// Runtime schemas for the transports. The engine's shapes are declared once in ./shapes
// (pure zod, no Node code) and re-exported here: the engine's types are z.infer of the same objects,
// so a field missing on the wire fails to compile. Shapes only the contract knows are declared below.
import { z } from 'zod';
import { settingDescriptor } from './shapes/settings.js';

export {
  retrievalMethod,
  indexCounts,
  skippedFile,
  indexProgress,
  embedderSwitch,
  indexReport,
  retrievedContext,
  citation,
  sentenceSupport,
  answer,
  mindMapView,
  documentSummary,
  folderSummary,
  noteState,
  modelPassSummary,
  noteText,
  noteLinks,
  noteTags,
  stats,
  chatSummary,
  chatMessage,
  indexEstimate,
  PATH_SEPARATOR,
} from './shapes/domain.js';
export { graphView, graphOverview, clusterView, clusterGrouping, relatedNote } from './shapes/graph.js';
export { settingDescriptor };

export const catalogueModel = z.object({
  id: z.string(),
  kind: z.enum(['gguf', 'transformers.js']),
  role: z.enum(['chat', 'embedding', 'test']),
  name: z.string(),
  description: z.string(),
  languages: z.array(z.string()),
  licence: z.string(),
  sizeBytes: z.number().nullable(),
  /** Shown when the exact size is not in the catalogue. */
  sizeLabel: z.string().nullable(),
  /** Memory it needs while running, e.g. "≈0.8 GB". */
  ramLabel: z.string().nullable(),
  verified: z.boolean(),
  /** The catalogue's first pick for a laptop (one chat, one embedding model). */
  recommended: z.boolean(),
});

/** A model in the models folder: a GGUF language model, or a transformers.js embedding model's folder. */
export const installedModel = z.object({
  id: z.string(),
  kind: z.enum(['gguf', 'transformers.js']),
  /** The GGUF file, or the model's folder. */
  file: z.string(),
  sizeBytes: z.number(),
  /** For an embedding model, the settings `embedder` value that uses it; null for a language model. */
  embedder: z.string().nullable(),
  /** The catalogue entry it is (a GGUF by its file name, an embedding model by its folder); null for an imported one. */
  catalogueId: z.string().nullable(),
  /**
   * What the engine uses it for, so it cannot be removed: the settings' choice, or — mid-switch — the
   * embedder still in force, or a language model opened under the previous setting.
   */
  inUse: z.enum(['answers', 'search']).nullable(),
});

/** Settings as stored: each value is checked by the engine against its setting's shape (settings.describe lists them). */
export const settingsRecord = z.record(z.string(), z.unknown());
export const settingsDescription = z.array(settingDescriptor);
