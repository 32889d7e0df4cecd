// Every user setting, declared once: its value's shape (validation), and as zod metadata the label,
// description, group and control a UI shows. main/engine/settings.ts adds the defaults and reads and
// writes them; `settings.describe` hands this to the UI. Pure zod (the contract imports it).
import { z } from 'zod';
import { retrievalMethod } from './domain.js';

export const settingKind = z.enum(['select', 'number', 'text', 'toggle']);

/** What a UI needs to draw one setting's control. */
export const settingMeta = z.object({
  label: z.string(),
  description: z.string(),
  group: z.string(),
  kind: settingKind,
  /** Choices for a select. */
  options: z.array(z.string()).optional(),
  /** A select's label for each option (e.g. each retrieval method's name in the registry); the value itself when absent. */
  optionLabels: z.record(z.string(), z.string()).optional(),
  /** A select that also accepts a typed value (e.g. an embedder folder). */
  allowCustom: z.boolean().optional(),
  step: z.number().optional(),
  /** Shown under the control, e.g. the accepted syntax. */
  placeholder: z.string().optional(),
});
export type SettingMeta = z.infer<typeof settingMeta>;

export const settingDescriptor = settingMeta.extend({
  key: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
  integer: z.boolean().optional(),
  default: z.union([z.string(), z.number(), z.boolean()]),
});
export type SettingDescriptor = z.infer<typeof settingDescriptor>;

const meta = (m: SettingMeta) => m;
const int = () => z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' });

/**
 * `glove`, `glove:<binary file>`, `transformers:<model folder>` or `openai:http(s)://host:port/v1#model`
 * (an OpenAI-compatible embeddings server: Ollama, LM Studio, llama.cpp, vLLM); see embed/registry.ts.
 */
export const EMBEDDER_SPEC = /^(glove|glove:.+|transformers:.+|openai:https?:\/\/.+)$/;

export const settingsShape = z.strictObject({
  method: z
    .enum(retrievalMethod.options, { error: `must be one of ${retrievalMethod.options.join(', ')}` })
    .meta(
      meta({
        label: 'Retrieval method',
        // The engine describes each method from its retrieval registry (main/engine/retrieve/registry.ts).
        description: 'How questions find passages.',
        group: 'Answers',
        kind: 'select',
        options: [...retrievalMethod.options],
      }),
    ),
  embedder: z
    .string({ error: 'must be a string' })
    .trim()
    .regex(EMBEDDER_SPEC, { error: 'must be "glove", "glove:<file>", "transformers:<model folder>" or "openai:http://host:port/v1#model"' })
    .meta(
      meta({
        label: 'Embedding model',
        description:
          'Turns passages into vectors: the built-in GloVe, an embedding model installed under Models, or an OpenAI-compatible server (openai:http://127.0.0.1:11434/v1#bge-m3; prompts a model wants go on the URL: ?query=search_query:+&passage=search_document:+). Changing it re-embeds the whole index in the background.',
        group: 'Indexing',
        kind: 'select',
        options: ['glove'],
        allowCustom: true,
        placeholder: 'glove | transformers:<model folder> | openai:http://host:port/v1#model',
      }),
    ),
  model: z
    .string({ error: 'must be a string' })
    .trim()
    .max(4096, { error: 'is too long' })
    .meta(
      meta({
        label: 'Language model',
        description: 'A .gguf file, an installed model id, or http(s)://server/v1#model. Empty: fast mode (no model; extractive answers).',
        group: 'Language model',
        kind: 'text',
        placeholder: 'empty = fast mode',
      }),
    ),
  threads: int()
    .min(1, { error: 'must be at least 1' })
    .max(256, { error: 'must be at most 256' })
    .meta(meta({ label: 'Threads', description: 'CPU threads for a local model. More than the free cores is drastically slower.', group: 'Language model', kind: 'number', step: 1 })),
  sequences: int()
    .min(1, { error: 'must be at least 1' })
    .max(16, { error: 'must be at most 16' })
    .meta(meta({ label: 'Parallel requests', description: 'Requests a local model generates at once.', group: 'Language model', kind: 'number', step: 1 })),
  docNeighbours: int()
    .min(1, { error: 'must be at least 1' })
    .max(50, { error: 'must be at most 50' })
    .meta(
      meta({
        label: 'Neighbours per note',
        description: "Similar notes linked to each note in the document layer (KG-Retriever's K). Applies at the next index run.",
        group: 'Graph',
        kind: 'number',
        step: 1,
      }),
    ),
  fusionTopic: z
    .number({ error: 'must be a number' })
    .gt(0, { error: 'is a cosine similarity: above 0' })
    .max(1, { error: 'is a cosine similarity: at most 1' })
    .meta(
      meta({
        label: 'Topic fusion threshold',
        description: 'Similarity at which topics of different notes join one super-topic (PG-RAG). Lower joins more.',
        group: 'Graph',
        kind: 'number',
        step: 0.01,
      }),
    ),
  fusionFact: z
    .number({ error: 'must be a number' })
    .gt(0, { error: 'is a cosine similarity: above 0' })
    .max(1, { error: 'is a cosine similarity: at most 1' })
    .meta(
      meta({
        label: 'Fact fusion threshold',
        description: 'Similarity at which fact paths of different notes join one super-fact (PG-RAG). Lower joins more.',
        group: 'Graph',
        kind: 'number',
        step: 0.01,
      }),
    ),
  maxBytes: int()
    .min(1024, { error: 'must be at least 1024 bytes' })
    .max(2 ** 30, { error: 'must be at most 1 GiB' })
    .meta(meta({ label: 'Largest file indexed (bytes)', description: 'Files larger than this are skipped and listed as too large.', group: 'Indexing', kind: 'number', step: 1024 })),
});

export type Settings = z.infer<typeof settingsShape>;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(settingsShape.shape) as SettingKey[];
