// The part of LociEngine (main/engine/engine.ts) that the contract drives. Structural, so this module
// needs only the engine's types and the renderer never pulls engine code in through the contract.
import type { Answer, AskOptions, DocumentSummary, GraphView, IndexOptions, IndexReport, MindMapView, NoteText, RelatedNote, Stats } from '../engine/api.js';
import type { Citation } from '../engine/api.js';
import type { IndexProgress } from '../engine/types.js';
import type { SettingDescriptor } from '../engine/shapes/settings.js';

export interface EnginePort {
  roots(): string[];
  index(root: string, opts?: IndexOptions): Promise<IndexReport>;
  watch(
    root: string,
    onReport: (r: IndexReport) => void,
    onProgress?: (p: IndexProgress) => void,
    onError?: (e: Error) => void,
  ): { close(): Promise<void> };
  /** The model pass after fast indexing; resolves null in fast mode (no model configured). */
  refine(opts?: { onProgress?: (p: IndexProgress) => void; signal?: AbortSignal }): Promise<unknown>;
  ask(question: string, opts?: AskOptions): Promise<Answer>;
  documents(): DocumentSummary[];
  mindMap(docPath: string, docId?: number): MindMapView | null;
  noteText(docPath: string, docId?: number): NoteText | Promise<NoteText>;
  graph(opts?: { limit?: number }): GraphView;
  localGraph(docId: number, opts?: { hops?: 1 | 2; limit?: number }): GraphView;
  related(docId: number, opts?: { limit?: number }): RelatedNote[];
  stats(): Stats;
  chats(): { id: number; title: string; createdAt: string }[];
  chat(id: number): { role: 'user' | 'assistant'; text: string; citations: Citation[] }[];
  settings(): Record<string, unknown>;
  updateSettings(patch: Record<string, unknown>): void;
  describeSettings(): SettingDescriptor[];
  close(): Promise<void>;
}
