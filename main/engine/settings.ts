import { z } from 'zod';
import type { Db } from './store/db.js';
import { getSetting, setSetting } from './store/settings.js';
import { DEFAULT_METHOD } from './retrieve/index.js';
import { METHOD_NAMES, RETRIEVAL_METHODS } from './retrieve/registry.js';
import { DEFAULT_FUSION } from './graph/pseudo/fusion.js';
import { DEFAULT_DOC_NEIGHBOURS } from './graph/hig/doc-edges.js';
import { DEFAULT_MAX_BYTES } from './ingest/scan.js';
import { defaultModelTuning } from './llm/local/tuning.js';
import { settingsShape, SETTING_KEYS, type SettingDescriptor, type SettingKey, type SettingMeta, type Settings } from '../contract/shapes/settings.js';
import { UserError } from './errors.js';

export type { Settings };

/**
 * The value in force while none is stored, for every setting in main/contract/shapes/settings.ts (which declares
 * each setting's shape, label and control). The engine reads settings through `readSettings` only.
 */
export const DEFAULT_SETTINGS: Settings = settingsShape.parse({
  method: DEFAULT_METHOD,
  embedder: 'glove',
  model: '',
  // Measured, not fixed (issue 13): half the cores, one sequence.
  ...defaultModelTuning(),
  docNeighbours: DEFAULT_DOC_NEIGHBOURS,
  fusionTopic: DEFAULT_FUSION.topic,
  fusionFact: DEFAULT_FUSION.fact,
  maxBytes: DEFAULT_MAX_BYTES,
});

const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(settingsShape.shape, key);

/** Stored settings; a stored value its setting no longer accepts (older build, hand edit) falls back to the default. */
export function readSettings(db: Db): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key of SETTING_KEYS) {
    const stored = getSetting<unknown>(db, key, null);
    if (stored === null) continue;
    const parsed = settingsShape.shape[key].safeParse(stored);
    if (parsed.success) out[key] = parsed.data;
    else console.warn(`loci: ignoring the stored setting '${key}' (${JSON.stringify(stored)}): it ${parsed.error.issues[0]?.message}; using ${JSON.stringify(DEFAULT_SETTINGS[key])}.`);
  }
  return out as Settings;
}

/** Checks a partial update (null resets a setting to its default); throws naming the first bad setting. */
export function validateSettingsPatch(patch: Record<string, unknown>): Partial<Settings> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(patch)) {
    if (!isSettingKey(key)) throw new UserError(`Unknown setting '${key}'. Settings: ${SETTING_KEYS.join(', ')}.`);
    if (raw === null) {
      out[key] = DEFAULT_SETTINGS[key];
      continue;
    }
    const parsed = settingsShape.shape[key].safeParse(raw);
    if (!parsed.success) throw new UserError(`Setting '${key}' ${parsed.error.issues[0]?.message ?? 'is invalid'}, got ${JSON.stringify(raw)}.`);
    out[key] = parsed.data;
  }
  return out as Partial<Settings>;
}

/** Validates and stores a partial update; throws naming the setting, and stores nothing, when one is wrong. */
export function writeSettings(db: Db, patch: Record<string, unknown>): void {
  const checked = validateSettingsPatch(patch);
  db.transaction(() => {
    for (const [key, value] of Object.entries(checked)) setSetting(db, key, value);
  })();
}

/** Each setting's control for a UI, from its zod declaration (metadata, bounds) and its default. */
export function describeSettings(): SettingDescriptor[] {
  return SETTING_KEYS.map((key) => {
    const field = settingsShape.shape[key];
    const meta = field.meta() as SettingMeta | undefined;
    if (!meta) throw new Error(`setting '${key}' has no metadata in main/contract/shapes/settings.ts`);
    const json = z.toJSONSchema(field) as { type?: string; minimum?: number; maximum?: number; exclusiveMinimum?: number };
    return {
      key,
      ...meta,
      ...(json.minimum !== undefined || json.exclusiveMinimum !== undefined ? { min: json.minimum ?? json.exclusiveMinimum } : {}),
      ...(json.maximum !== undefined ? { max: json.maximum } : {}),
      ...(json.type === 'integer' ? { integer: true } : {}),
      default: DEFAULT_SETTINGS[key],
      ...(key === 'method' ? methodChoices(meta) : {}),
    };
  });
}

/** The retrieval method's control: options, labels and description from the registry, in its order. */
function methodChoices(meta: SettingMeta): Pick<SettingMeta, 'options' | 'optionLabels' | 'description'> {
  const described = METHOD_NAMES.map((m) => `${m} (${RETRIEVAL_METHODS[m].description})`).join('; ');
  return {
    options: [...METHOD_NAMES],
    optionLabels: Object.fromEntries(METHOD_NAMES.map((m) => [m, RETRIEVAL_METHODS[m].label])),
    description: `${meta.description.replace(/\.$/, '')}: ${described}.`,
  };
}
