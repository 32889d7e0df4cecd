// How a sentence-transformers model folder says its texts are to be embedded — the files the model's
// authors publish beside the weights, and the ones `loci models pull` writes from the catalogue:
//   sentence_bert_config.json         max_seq_length: the longest input the model was trained on
//   modules.json + 1_Pooling/config.json   the pooling (mean of the tokens, or the [CLS] token)
//   config_sentence_transformers.json prompts: text put before a query and before a passage (E5's
//                                     "query: " / "passage: ", BGE's retrieval instruction)
// A model embedded otherwise still gives vectors, only worse ones: E5 without its prefixes, BGE
// mean-pooled where it was trained on [CLS].
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

export type Pooling = 'mean' | 'cls';

export interface EmbeddingPrompts {
  /** Put before a question (embedQueries). */
  query?: string;
  /** Put before every passage, chunk or fact that is indexed (embed). */
  passage?: string;
}

/** What a folder says; each part null (or empty) where it says nothing, so the caller's default holds. */
export interface SentenceTransformersConfig {
  maxSeqLength: number | null;
  pooling: Pooling | null;
  prompts: EmbeddingPrompts;
}

/** The declaration a catalogue entry carries, written into a pulled folder as the files above. */
export const embeddingDeclaration = z.strictObject({
  pooling: z.enum(['mean', 'cls']),
  maxSeqLength: z.number().int().min(2),
  prompts: z.strictObject({ query: z.string().min(1).optional(), passage: z.string().min(1).optional() }).optional(),
});
export type EmbeddingDeclaration = z.infer<typeof embeddingDeclaration>;

const SENTENCE_BERT_CONFIG = 'sentence_bert_config.json';
const MODULES = 'modules.json';
const DEFAULT_POOLING_DIR = '1_Pooling';
const PROMPTS_CONFIG = 'config_sentence_transformers.json';
const POOLING_MODULE = 'sentence_transformers.models.Pooling';

const tokenCount = { error: (i: { input: unknown }) => `max_seq_length must be an integer of at least 2, not ${JSON.stringify(i.input)}` };
const sentenceBertConfig = z.looseObject({ max_seq_length: z.int(tokenCount).min(2, tokenCount).nullish() });
const modules = z.array(z.looseObject({ path: z.string(), type: z.string() }));
const poolingConfig = z.looseObject({
  pooling_mode_cls_token: z.boolean().optional(),
  pooling_mode_mean_tokens: z.boolean().optional(),
  pooling_mode_max_tokens: z.boolean().optional(),
  pooling_mode_mean_sqrt_len_tokens: z.boolean().optional(),
  pooling_mode_weightedmean_tokens: z.boolean().optional(),
  pooling_mode_lasttoken: z.boolean().optional(),
});
const promptsConfig = z.looseObject({ prompts: z.record(z.string(), z.string()).optional() });

function readJson<T>(file: string, schema: z.ZodType<T>): T | null {
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

/** The pooling module's folder: as modules.json lists it, else sentence-transformers' usual 1_Pooling. */
function poolingDir(dir: string): string {
  const listed = readJson(join(dir, MODULES), modules)?.find((m) => m.type === POOLING_MODULE);
  return join(dir, listed?.path ?? DEFAULT_POOLING_DIR);
}

function readPooling(dir: string): Pooling | null {
  const file = join(poolingDir(dir), 'config.json');
  const c = readJson(file, poolingConfig);
  if (!c) return null;
  const modes = Object.entries(c).filter(([k, v]) => k.startsWith('pooling_mode_') && v === true).map(([k]) => k.slice('pooling_mode_'.length));
  if (modes.length === 1 && modes[0] === 'cls_token') return 'cls';
  if (modes.length === 1 && modes[0] === 'mean_tokens') return 'mean';
  throw new Error(`${file}: pooling ${modes.join(' + ') || '(none)'} is not supported; Loci pools by the mean of the tokens or by the [CLS] token`);
}

/** Reads what the folder says; throws a clear error naming the file when one is unreadable. */
export function readSentenceTransformersConfig(dir: string): SentenceTransformersConfig {
  const prompts = readJson(join(dir, PROMPTS_CONFIG), promptsConfig)?.prompts ?? {};
  // sentence-transformers lets a model name its prompts; "passage" and "document" are both in use.
  const passage = prompts.passage ?? prompts.document;
  return {
    maxSeqLength: readJson(join(dir, SENTENCE_BERT_CONFIG), sentenceBertConfig)?.max_seq_length ?? null,
    pooling: readPooling(dir),
    prompts: { ...(prompts.query ? { query: prompts.query } : {}), ...(passage ? { passage } : {}) },
  };
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Writes a declaration into a model folder in sentence-transformers' own files, leaving any the folder
 * already has (a download that brought the authors' files keeps them).
 */
export function writeSentenceTransformersConfig(dir: string, d: EmbeddingDeclaration): string[] {
  const written: string[] = [];
  const write = (file: string, value: unknown) => {
    if (existsSync(file)) return;
    writeJson(file, value);
    written.push(file);
  };
  write(join(dir, SENTENCE_BERT_CONFIG), { max_seq_length: d.maxSeqLength, do_lower_case: false });
  write(join(poolingDir(dir), 'config.json'), { pooling_mode_cls_token: d.pooling === 'cls', pooling_mode_mean_tokens: d.pooling === 'mean' });
  if (d.prompts && (d.prompts.query || d.prompts.passage)) write(join(dir, PROMPTS_CONFIG), { prompts: d.prompts, default_prompt_name: null });
  return written;
}
