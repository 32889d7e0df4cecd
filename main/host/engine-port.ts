// The part of LociEngine (main/engine/engine.ts) that a host's contract handlers drive. Structural, so
// hosts and tests can hand in the engine without this module importing it.
import type { Answer, AskOptions, ChatMessage, ChatSummary, DocumentSummary, FolderSummary, GraphView, IndexReport, MindMapView, NoteText, RelatedNote, Stats } from '../engine/api.js';
import type { SettingDescriptor } from '../contract/shapes/settings.js';
import type { IndexProgress } from '../engine/types.js';
import type { EngineEvent, JobOptions } from '../engine/engine.js';
import type { FolderJob } from '../engine/jobs/folder-jobs.js';
import type { PathCompletion } from '../engine/library/complete-path.js';
import type { ModelsInUse } from '../engine/llm/models/remove.js';

export interface EnginePort {
  roots(): string[];
  folders(): FolderSummary[];
  /** The folder's whole job (fast pass, model pass, graph); resolves with the final report. */
  index(root: string, opts?: JobOptions): Promise<IndexReport>;
  startJob(root: string, opts?: JobOptions): FolderJob;
  cancelJob(root: string): boolean;
  removeFolder(root: string): Promise<{ removed: number }>;
  setScope(root: string, scope: { include: string[]; exclude: string[] }): Promise<FolderJob>;
  reindex(root: string, docId?: number): FolderJob;
  completePath(prefix: string, opts?: { hidden?: boolean }): Promise<PathCompletion>;
  subscribe(listener: (e: EngineEvent) => void): () => void;
  warnings(): string[];
  watch(
    root: string,
    onReport?: (r: IndexReport) => void,
    onProgress?: (p: IndexProgress) => void,
    onError?: (e: Error) => void,
  ): { close(): Promise<void> };
  ask(question: string, opts?: AskOptions): Promise<Answer>;
  documents(): DocumentSummary[];
  mindMap(docPath: string, docId?: number): MindMapView | null;
  noteText(docPath: string, docId?: number): NoteText | Promise<NoteText>;
  noteFile(docPath: string, docId?: number): Promise<{ real: string }>;
  graph(opts?: { limit?: number }): GraphView;
  localGraph(docId: number, opts?: { hops?: 1 | 2; limit?: number }): GraphView;
  related(docId: number, opts?: { limit?: number }): RelatedNote[];
  stats(): Stats;
  chats(): ChatSummary[];
  chat(id: number): Promise<ChatMessage[]>;
  deleteChat(id: number): void;
  settings(): Record<string, unknown>;
  /** The models the engine uses (settings, and mid-switch the ones still in force): never deleted. */
  modelsInUse(): ModelsInUse;
  updateSettings(patch: Record<string, unknown>): Promise<void>;
  describeSettings(): SettingDescriptor[];
  close(): Promise<void>;
}
