// Runtime schemas mirroring main/engine/api.ts and main/engine/types.ts. The contract validates every
// payload against these at the transport boundary; `satisfies` checks below keep them in step with
// the engine's TypeScript types so a drift fails the typecheck, not a user.
import { z } from 'zod';
import type {
  Answer,
  Citation,
  DocumentSummary,
  GraphView,
  IndexReport,
  MindMapView,
  NoteText,
  Stats,
} from '../engine/api.js';
import type { IndexProgress, RetrievedContext } from '../engine/types.js';

export const retrievalMethod = z.enum(['bm25', 'dense', 'hybrid', 'hig', 'pgr', 'loci']);

export const indexCounts = z.object({
  documents: z.number(),
  chunks: z.number(),
  fcis: z.number(),
  mindMapNodes: z.number(),
  entities: z.number(),
  triples: z.number(),
  docEdges: z.number(),
  superNodes: z.number(),
  skipped: z.number(),
});

export const skippedFile = z.object({
  relPath: z.string(),
  reason: z.enum(['binary', 'too-large', 'unreadable', 'invalid-utf8', 'empty', 'unsupported']),
  detail: z.string(),
});

export const indexProgress = z.object({
  phase: z.enum(['scan', 'parse', 'extract', 'embed', 'graph', 'llm', 'done']),
  done: z.number(),
  total: z.number(),
  etaSeconds: z.number().nullable(),
  current: z.string().optional(),
});

export const indexReport = z.object({
  root: z.string(),
  counts: indexCounts,
  changed: z.number(),
  unchanged: z.number(),
  removed: z.number(),
  skipped: z.array(skippedFile),
  seconds: z.number(),
});

export const retrievedContext = z.object({
  text: z.string(),
  docId: z.number(),
  docPath: z.string(),
  docTitle: z.string(),
  lineFrom: z.number(),
  lineTo: z.number(),
  factPath: z.string().nullable(),
  score: z.number(),
  kind: z.enum(['chunk', 'fci', 'fact-path', 'triple']),
});

export const citation = z.object({
  n: z.number(),
  docId: z.number().optional(),
  docPath: z.string(),
  docTitle: z.string(),
  lineFrom: z.number(),
  lineTo: z.number(),
  factPath: z.string().nullable(),
  text: z.string(),
});

export const answer = z.object({
  question: z.string(),
  text: z.string(),
  mode: z.enum(['extractive', 'generated']),
  model: z.string().nullable(),
  method: retrievalMethod,
  contexts: z.array(retrievedContext),
  citations: z.array(citation),
  droppedCitations: z.number(),
  explanation: z.unknown().optional(),
  chatId: z.number().optional(),
  ms: z.number(),
});

export const mindMapView: z.ZodType<MindMapView> = z.lazy(() =>
  z.object({
    id: z.number(),
    kind: z.enum(['topic', 'route', 'fact']),
    text: z.string(),
    lineFrom: z.number().nullable(),
    lineTo: z.number().nullable(),
    extractor: z.string(),
    related: z.array(
      z.object({
        superId: z.number(),
        superKind: z.enum(['topic', 'fact']),
        nodeId: z.number(),
        docId: z.number(),
        docPath: z.string(),
        text: z.string(),
        sim: z.number(),
      }),
    ),
    children: z.array(mindMapView),
  }),
);

export const documentSummary = z.object({
  id: z.number(),
  relPath: z.string(),
  title: z.string(),
  lang: z.string(),
  status: z.enum(['indexed', 'skipped', 'error']),
  error: z.string().nullable(),
  chunks: z.number(),
  fcis: z.number(),
});

export const noteText = z.object({
  docPath: z.string(),
  title: z.string(),
  lines: z.array(z.string()),
});

export const graphView = z.object({
  nodes: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['doc', 'entity', 'super-topic']),
      label: z.string(),
      docId: z.number().optional(),
      docPath: z.string().optional(),
      weight: z.number(),
    }),
  ),
  links: z.array(
    z.object({
      source: z.string(),
      target: z.string(),
      kind: z.enum(['similar', 'mentions', 'super-topic']),
      weight: z.number(),
    }),
  ),
});

export const stats = z.object({
  dbPath: z.string(),
  roots: z.array(z.string()),
  counts: indexCounts,
  embedder: z.string(),
  extractors: z.array(z.object({ extractor: z.string(), documents: z.number() })),
  schemaVersion: z.number(),
});

export const chatSummary = z.object({ id: z.number(), title: z.string(), createdAt: z.string() });
export const chatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  citations: z.array(citation),
});

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

export const settingsRecord = z.record(z.string(), z.unknown());

// Compile-time drift checks: each schema's output must be assignable to the engine type and back.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const drift: {
  progress: Same<z.infer<typeof indexProgress>, IndexProgress>;
  report: Same<z.infer<typeof indexReport>, IndexReport>;
  context: Same<z.infer<typeof retrievedContext>, RetrievedContext>;
  citation: Same<z.infer<typeof citation>, Citation>;
  answer: Same<z.infer<typeof answer>, Answer>;
  doc: Same<z.infer<typeof documentSummary>, DocumentSummary>;
  note: Same<z.infer<typeof noteText>, NoteText>;
  graph: Same<z.infer<typeof graphView>, GraphView>;
  stats: Same<z.infer<typeof stats>, Stats>;
} = { progress: true, report: true, context: true, citation: true, answer: true, doc: true, note: true, graph: true, stats: true };
void drift;
