// What every view shares: the contract client, the host's capabilities, navigation, and the note
// viewer (citations and mind-map nodes open notes at lines through it).
import { createContext, useContext } from 'react';
import type { LociClient } from '../../../main/contract/client.js';
import type { Res } from '../../../main/contract/contract.js';

export type ViewName = 'library' | 'ask' | 'mindmap' | 'graph' | 'settings';

/** A note: its id when known (two library folders may share a relative path), and its path. */
export interface NoteRef {
  docPath: string;
  docId?: number;
}

export interface NoteTarget extends NoteRef {
  lineFrom?: number | null;
  lineTo?: number | null;
}

export interface AppContextValue {
  client: LociClient;
  host: Res<'host.info'> | null;
  view: ViewName;
  go(view: ViewName): void;
  openNote(target: NoteTarget): void;
  openMindMap(note: NoteRef): void;
  mindMapDoc: NoteRef | null;
  /** Shows the graph around a note (its local graph); null shows the whole library. */
  openGraph(note: NoteRef | null): void;
  graphDoc: NoteRef | null;
  /** The quick switcher (Ctrl+K / Ctrl+O); the purpose says what picking a note does; `query` is typed in for you (`#tag`). */
  openSwitcher(purpose?: 'note' | 'mindmap' | 'graph', query?: string): void;
  /** Bumped whenever an index run or a watched change lands, so views refetch. */
  indexVersion: number;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp outside AppContext');
  return ctx;
}
