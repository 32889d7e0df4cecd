// The catalogue of recommended models (resources/models/catalogue.json), validated on load.
import { readFileSync } from 'node:fs';
import { resourcePath } from '../../paths.js';
import { z } from 'zod';
import { embeddingDeclaration } from '../../embed/sentence-transformers-folder.js';

const sha = z.string().regex(/^[0-9a-f]{64}$/).nullable();

const fileSchema = z.object({ path: z.string().min(1), url: z.string().url(), sha256: sha, sizeBytes: z.number().int().positive().nullable().optional() });

const entrySchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9._-]+$/),
  kind: z.enum(['gguf', 'transformers.js']),
  role: z.enum(['chat', 'embedding', 'test']),
  name: z.string(),
  description: z.string(),
  /** ISO 639-1 codes of the languages it reads, or 'multilingual' for a model trained on many. */
  languages: z.array(z.string()),
  licence: z.string(),
  url: z.string().url().optional(),
  file: z.string().optional(),
  repo: z.string().optional(),
  files: z.array(fileSchema).optional(),
  sizeBytes: z.number().int().positive().nullable(),
  sizeLabel: z.string().optional(),
  sha256: sha,
  checksumSource: z.string().nullable(),
  verified: z.boolean(),
  /** Memory the model needs while it runs on CPU (weights + a 4k context), for choosing one that fits. */
  ramLabel: z.string().optional(),
  /**
   * How the model's authors embed with it (their model card): pooling, trained length, prompts. Written
   * into the pulled folder as sentence-transformers' own files, which the embedder reads.
   */
  embedding: embeddingDeclaration.optional(),
  /** The first model to install on a laptop; at most one chat and one embedding model carry it. */
  recommended: z.boolean().optional(),
});

export type CatalogueEntry = z.infer<typeof entrySchema>;
export type CatalogueFile = z.infer<typeof fileSchema>;

const catalogueSchema = z.object({ version: z.literal(1), note: z.string().optional(), models: z.array(entrySchema) });

export const CATALOGUE_FILE = resourcePath('models', 'catalogue.json');

export function loadCatalogue(file = CATALOGUE_FILE): CatalogueEntry[] {
  const parsed = catalogueSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  for (const role of ['chat', 'embedding'] as const) {
    const picks = parsed.models.filter((m) => m.role === role && m.recommended);
    if (picks.length > 1) throw new Error(`Catalogue: more than one recommended ${role} model (${picks.map((m) => m.id).join(', ')}).`);
  }
  for (const m of parsed.models) {
    if (m.verified && !(m.sha256 || m.files?.every((f) => f.sha256))) throw new Error(`Catalogue entry ${m.id}: verified without a checksum.`);
    if (m.kind === 'gguf' && (!m.url || !m.file)) throw new Error(`Catalogue entry ${m.id}: a GGUF model needs url and file.`);
    if (m.kind === 'transformers.js' && !m.files?.length) throw new Error(`Catalogue entry ${m.id}: a transformers.js model needs files.`);
    if (m.kind === 'transformers.js' && m.role === 'embedding' && !m.embedding) throw new Error(`Catalogue entry ${m.id}: an embedding model needs its embedding (pooling, maxSeqLength, prompts).`);
  }
  return parsed.models;
}

export function findCatalogueEntry(id: string, catalogue = loadCatalogue()): CatalogueEntry | undefined {
  return catalogue.find((m) => m.id === id);
}

/** The files to fetch for an entry, each with the checksum to verify (if known). */
export function entryFiles(entry: CatalogueEntry): CatalogueFile[] {
  if (entry.kind === 'gguf') return [{ path: entry.file!, url: entry.url!, sha256: entry.sha256, sizeBytes: entry.sizeBytes }];
  return entry.files ?? [];
}
