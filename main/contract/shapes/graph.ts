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
  /** Clusters a UI can group by: the note's folder (`''` at a root's top level) and its largest super-topic (`s<id>`, as its node id) with that topic's name. */
  folder: z.string().optional(),
  topic: z.string().optional(),
  topicLabel: z.string().optional(),
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

/** How the overview groups notes: by folder (a folder too big to read is split by super-topic), or by super-topic. */
export const clusterGrouping = z.enum(['folder', 'topic']);

/** One cluster of the whole-library overview: a folder (with its sub-folders, unless they are clusters of their own) or a super-topic's notes. */
export const graphCluster = z.object({
  id: z.string(),
  kind: z.enum(['folder', 'topic']),
  label: z.string(),
  /** The folder it covers, relative to its library folder (`''` at the top level). */
  folder: z.string(),
  notes: z.number(),
  /** Document-layer edges with both ends inside it. */
  innerLinks: z.number(),
  /** Its commonest super-topics' names, most notes first (up to 3). */
  topics: z.array(z.string()),
});

/** Document-layer edges between two clusters' notes, counted. */
export const clusterLink = z.object({ source: z.string(), target: z.string(), weight: z.number() });

export const graphOverview = z.object({
  by: clusterGrouping,
  /** Indexed notes in all clusters. */
  notes: z.number(),
  clusters: z.array(graphCluster),
  links: z.array(clusterLink),
});

/** One cluster opened: its notes, the edges among them, and each note's edges to the other clusters (counted; target is a cluster id). */
export const clusterView = z.object({
  cluster: graphCluster,
  nodes: z.array(graphNode),
  links: z.array(graphLink),
  outward: z.array(clusterLink),
});

/** Why a note is related. `text` names it (the shared entity, the similar passage, the shared topic); the lines are in the related note. */
export const relatedReason = z.object({
  kind: z.enum(['similar', 'entity', 'super-topic']),
  text: z.string(),
  /** similar: cosine of the two notes on the document layer; entity: the entity's IDF; super-topic: the topic's similarity. */
  weight: z.number(),
  lineFrom: z.number().nullable(),
  lineTo: z.number().nullable(),
  /** similar: the open note's passage that matches `text`, when a passage pair was found. */
  mine: z.object({ text: z.string(), lineFrom: z.number(), lineTo: z.number(), sim: z.number() }).optional(),
});

export const relatedNote = z.object({
  docId: z.number(),
  docPath: z.string(),
  title: z.string(),
  /** Sum of the three signals, each in 0..1: document-layer similarity, share of the note's entity weight (IDF), best topic similarity. */
  score: z.number(),
  /** Strongest first: the similar passage, then shared entities (rarest first), then shared topics. */
  reasons: z.array(relatedReason).min(1),
});
