// Graph payloads: the global graph view, the local graph around a note, and related notes. Pure zod
// (see domain.ts); types in main/engine/api.ts are inferred from these.
import { z } from 'zod';

export const graphNode = z.object({
  id: z.string(),
  kind: z.enum(['doc', 'entity', 'super-topic']),
  label: z.string(),
  docId: z.number().optional(),
  docPath: z.string().optional(),
  weight: z.number(),
  /** Clusters a UI can group by: the note's folder (`''` at a root's top level) and its strongest super-topic. */
  folder: z.string().optional(),
  topic: z.string().optional(),
  /** Hops from the centre note, in a local graph. */
  hops: z.number().optional(),
});

export const graphLink = z.object({
  source: z.string(),
  target: z.string(),
  kind: z.enum(['similar', 'mentions', 'super-topic']),
  weight: z.number(),
});

export const graphView = z.object({
  nodes: z.array(graphNode),
  links: z.array(graphLink),
});

export const relatedReason = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('similar'),
    /** Cosine of the two notes' vectors on the document layer. */
    weight: z.number(),
    /** The most similar passage pair, when one was found. */
    passage: z.object({ mine: z.string(), mineLines: z.tuple([z.number(), z.number()]), theirs: z.string(), theirLines: z.tuple([z.number(), z.number()]), sim: z.number() }).optional(),
  }),
  z.object({
    kind: z.literal('entities'),
    /** Shared entities, rarest (highest IDF) first. */
    entities: z.array(z.object({ name: z.string(), idf: z.number() })),
    weight: z.number(),
  }),
  z.object({
    kind: z.literal('super-topic'),
    topics: z.array(z.object({ text: z.string(), sim: z.number() })),
    weight: z.number(),
  }),
]);

export const relatedNote = z.object({
  docId: z.number(),
  docPath: z.string(),
  title: z.string(),
  /** Sum of the reasons' weights, each reason scaled to 0..1 first. */
  score: z.number(),
  reasons: z.array(relatedReason).min(1),
});
