// The engine's public surface, as the CLI, the browser-mode server and the Electron engine host use it.
// What crosses the wire is inferred from the zod shapes (main/contract/shapes/*.ts) the contract validates with;
// only the in-process options (callbacks, abort signals) are plain interfaces.
import type { z } from 'zod';
import type * as shape from '../contract/shapes/domain.js';
import type * as graphShape from '../contract/shapes/graph.js';
import type { IndexProgress, RetrievalMethod } from './types.js';

export interface IndexOptions {
  /** Called as work advances; cheap to call often. */
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
}

export type IndexReport = z.infer<typeof shape.indexReport>;
export type ModelPassSummary = z.infer<typeof shape.modelPassSummary>;
export type NoteState = z.infer<typeof shape.noteState>;
export type FolderSummary = z.infer<typeof shape.folderSummary>;

export interface AskOptions {
  method?: RetrievalMethod;
  k?: number;
  /** Include the retrieval's explanation (seeds, walks, neighbours) in the answer. */
  explain?: boolean;
  signal?: AbortSignal;
  /** Streamed answer tokens, when a model answers. */
  onToken?: (token: string) => void;
  chatId?: number;
}

export type Citation = z.infer<typeof shape.citation>;
export type Answer = z.infer<typeof shape.answer>;
export type SentenceSupport = z.infer<typeof shape.sentenceSupport>;
export type MindMapView = z.infer<typeof shape.mindMapView>;
export type DocumentSummary = z.infer<typeof shape.documentSummary>;
export type NoteText = z.infer<typeof shape.noteText>;
export type NoteLinks = z.infer<typeof shape.noteLinks>;
export type NoteTags = z.infer<typeof shape.noteTags>;
export type GraphView = z.infer<typeof graphShape.graphView>;
export type GraphNode = z.infer<typeof graphShape.graphNode>;
export type GraphLink = z.infer<typeof graphShape.graphLink>;
export type GraphCluster = z.infer<typeof graphShape.graphCluster>;
export type ClusterLink = z.infer<typeof graphShape.clusterLink>;
export type ClusterGrouping = z.infer<typeof graphShape.clusterGrouping>;
export type GraphOverview = z.infer<typeof graphShape.graphOverview>;
export type ClusterView = z.infer<typeof graphShape.clusterView>;
export type RelatedNote = z.infer<typeof graphShape.relatedNote>;
export type RelatedReason = z.infer<typeof graphShape.relatedReason>;
export type Stats = z.infer<typeof shape.stats>;
export type EmbedderSwitch = z.infer<typeof shape.embedderSwitch>;
export type ChatSummary = z.infer<typeof shape.chatSummary>;
export type ChatMessage = z.infer<typeof shape.chatMessage>;
export type ProbeResult = z.infer<typeof shape.estimateProbe>;
export type IndexEstimate = z.infer<typeof shape.indexEstimate>;
